import Foundation
import PostgresClient
import TestSupport
import Testing
import UUIDText

@Suite("Parameters and results round-trip through PostgreSQL", .requiresPostgres)
struct PostgresRoundTripTests {
    @Test func scalarTypesComeBackAsSent() async throws {
        try await TestDatabase.with(migrated: false) { database in
            let id = UUID()
            let moment = Date(timeIntervalSince1970: 1_700_000_000.123456)
            let rows = try await database.pool.query(
                "SELECT $1::text AS t, $2::bigint AS i, $3::boolean AS b, $4::float8 AS d, $5::uuid AS u, $6::timestamptz AS ts",
                ["héllo ✓ 'quoted'", Int64.max, true, 2.5, id, moment])
            let row = rows[0]
            #expect(try row.require("t", as: String.self) == "héllo ✓ 'quoted'")
            #expect(try row.require("i", as: Int64.self) == Int64.max)
            #expect(try row.require("b", as: Bool.self) == true)
            #expect(try row.require("d", as: Double.self) == 2.5)
            #expect(try row.require("u", as: UUID.self) == id)
            let back = try row.require("ts", as: Date.self)
            #expect(abs(back.timeIntervalSince1970 - moment.timeIntervalSince1970) < 0.000_001)
        }
    }

    /// `lowercasedText` (written out by hand instead of Foundation's `uuidString`) is the text PostgreSQL
    /// prints for the same uuid, for every nibble value in every position.
    @Test func uuidTextIsWhatPostgreSQLPrints() async throws {
        var ids = (0..<64).map { _ in UUID() }
        ids.append(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        ids.append(UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)))
        ids.append(UUID(uuid: (0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10)))
        for id in ids { #expect(id.lowercasedText == id.uuidString.lowercased()) }
        try await TestDatabase.with(migrated: false) { database in
            let rows = try await database.pool.query(
                "SELECT u::text AS printed FROM unnest($1::uuid[]) AS u", [ids.map(\.lowercasedText)])
            #expect(try rows.map { try $0.require("printed", as: String.self) } == ids.map(\.lowercasedText))
        }
    }

    @Test func nullIsBoundAndReadAsNil() async throws {
        try await TestDatabase.with(migrated: false) { database in
            let none: String? = nil
            let rows = try await database.pool.query("SELECT $1::text AS value", [none])
            #expect(try rows[0].decode("value", as: String.self) == nil)
            #expect(throws: PostgresError.self) { try rows[0].require("value", as: String.self) }
        }
    }

    @Test func byteaKeepsEveryByteIncludingZero() async throws {
        try await TestDatabase.with(migrated: false) { database in
            let bytes = Data([0, 1, 2, 0xFF, 0, 0x5C, 0x27])
            let rows = try await database.pool.query("SELECT $1::bytea AS b, length($1::bytea) AS n", [bytes])
            #expect(try rows[0].require("b", as: Data.self) == bytes)
            #expect(try rows[0].require("n", as: Int.self) == 7)
        }
    }

    @Test func textArraysSurviveQuotesCommasAndBackslashes() async throws {
        try await TestDatabase.with(migrated: false) { database in
            let values = ["plain", "with,comma", "with \"quote\"", "back\\slash", "{braces}", "NULL", "", "héllo ✓", "é,\"✓\""]
            let rows = try await database.pool.query("SELECT $1::text[] AS a, cardinality($1::text[]) AS n", [values])
            #expect(try rows[0].require("n", as: Int.self) == values.count)
            // A quoted "NULL" element is the string NULL, not SQL NULL.
            #expect(try rows[0].require("a", as: [String].self) == values)
            let edges = try await database.pool.query("SELECT ARRAY[]::text[] AS empty, ARRAY['a', NULL, 'NULL'] AS nulls")
            #expect(try edges[0].require("empty", as: [String].self) == [])
            // SQL NULL elements are dropped; the quoted string NULL is kept.
            #expect(try edges[0].require("nulls", as: [String].self) == ["a", "NULL"])
        }
    }

    @Test func parametersAreNeverSpliceIntoTheStatement() async throws {
        try await TestDatabase.with(migrated: false) { database in
            try await database.pool.query("CREATE TABLE notes (body text)")
            let hostile = "x'); DROP TABLE notes; --"
            try await database.pool.query("INSERT INTO notes (body) VALUES ($1)", [hostile])
            let rows = try await database.pool.query("SELECT body FROM notes")
            #expect(rows.count == 1)
            #expect(try rows[0].require("body", as: String.self) == hostile)
        }
    }

    @Test func affectedRowCountIsReported() async throws {
        try await TestDatabase.with(migrated: false) { database in
            try await database.pool.query("CREATE TABLE t (n int)")
            let inserted = try await database.pool.query("INSERT INTO t SELECT generate_series(1, 5)")
            #expect(inserted.affectedRowCount == 5)
            let updated = try await database.pool.query("UPDATE t SET n = n + 1 WHERE n > $1", [3])
            #expect(updated.affectedRowCount == 2)
        }
    }

    @Test func timestampsFromTheServerParseInUTC() async throws {
        try await TestDatabase.with(migrated: false) { database in
            let rows = try await database.pool.query(
                "SELECT '2023-02-28T00:00:00+0000'::timestamptz AS a, '2024-02-29 23:59:59.5-08:00'::timestamptz AS b, '1969-12-31 23:59:59+00'::timestamptz AS c"
            )
            #expect(try rows[0].require("a", as: Date.self).timeIntervalSince1970 == 1_677_542_400)
            #expect(try rows[0].require("b", as: Date.self).timeIntervalSince1970 == 1_709_279_999.5)
            #expect(try rows[0].require("c", as: Date.self).timeIntervalSince1970 == -1)
        }
    }

    /// ISO 8601 has a year 0 (1 BC), PostgreSQL does not: such an instant is bound as the earliest it
    /// can write, never as a literal the server refuses.
    @Test func anInstantBeforeYearOneIsBoundAsYearOne() async throws {
        try await TestDatabase.with(migrated: false) { database in
            let yearZero = Date(timeIntervalSince1970: -62_167_219_200)
            let rows = try await database.pool.query("SELECT $1::timestamptz AS t", [yearZero])
            #expect(try rows[0].require("t", as: Date.self) == PostgresTimestamp.earliest)
        }
    }
}
