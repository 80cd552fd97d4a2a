import Foundation
import PostgresClient
import TestSupport
import Testing

@Suite("Errors carry SQLSTATE and never secrets", .requiresPostgres)
struct PostgresErrorTests {
    @Test func uniqueViolationCarriesItsSQLState() async throws {
        try await TestDatabase.with(migrated: false) { database in
            try await database.pool.query("CREATE TABLE k (v text PRIMARY KEY)")
            try await database.pool.query("INSERT INTO k VALUES ($1)", ["a"])
            let error = await #expect(throws: PostgresError.self) {
                try await database.pool.query("INSERT INTO k VALUES ($1)", ["a"])
            }
            #expect(error?.code == .statementFailed)
            #expect(error?.sqlState == "23505")
            #expect(error?.isUniqueViolation == true)
        }
    }

    @Test func syntaxErrorIsAStatementFailureAndTheConnectionStaysUsable() async throws {
        try await TestDatabase.with(migrated: false, poolSize: 1) { database in
            let error = await #expect(throws: PostgresError.self) { try await database.pool.query("SELEC 1") }
            #expect(error?.sqlState == "42601")
            let rows = try await database.pool.query("SELECT 1 AS one")
            #expect(try rows[0].require("one", as: Int.self) == 1)
        }
    }

    /// The pool's deadline is the tests' own: at the suite's start every test begins at once, and the
    /// refused connect may not get a thread within the default 10 s (it would then fail as `timedOut`).
    @Test func connectionFailureDoesNotRevealThePassword() async throws {
        let secret = "hunter2-\(UUID().uuidString)"
        let pool = PostgresConnectionPool(
            configuration: .init(
                connectionString: "postgres://someone:\(secret)@127.0.0.1:1/nowhere", maximumConnections: 1,
                connectTimeoutSeconds: 2, callTimeout: TestPostgres.callTimeout))
        let error = await #expect(throws: PostgresError.self) { try await pool.query("SELECT 1") }
        await pool.close()
        #expect(error?.code == .connectionFailed)
        #expect(error.map { !String(describing: $0).contains(secret) } == true)
        #expect(error.map { !String(reflecting: $0).contains(secret) } == true)
    }

    @Test func decodingTheWrongTypeIsADecodingError() async throws {
        try await TestDatabase.with(migrated: false) { database in
            let rows = try await database.pool.query("SELECT 'abc'::text AS v")
            let error = #expect(throws: PostgresError.self) { try rows[0].require("v", as: Int.self) }
            #expect(error?.code == .decodingFailed)
        }
    }
}
