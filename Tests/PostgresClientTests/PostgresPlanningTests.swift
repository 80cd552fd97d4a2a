import PostgresClient
import TestSupport
import Testing

@Suite("Prepared statements: generic or server-chosen plans", .requiresPostgres)
struct PostgresPlanningTests {
    /// A one-element array makes a plan for the values look cheaper than the generic plan (which assumes
    /// ten elements), so the server, left to choose, plans every run again.
    static let sql = "SELECT count(*)::int AS n FROM planned WHERE id = ANY($1::int[])"
    static let generic = PostgresStatement(name: "planning_test_generic", sql: sql, planning: .generic)
    static let chosen = PostgresStatement(name: "planning_test_chosen", sql: sql)

    @Test func aGenericStatementIsPlannedOnceWhateverItsFirstRunsLookLike() async throws {
        try await TestDatabase.with(migrated: false, poolSize: 1) { database in
            let (generic, chosen, mode) = try await database.pool.withConnection { connection in
                try connection.query("CREATE TABLE planned AS SELECT g AS id FROM generate_series(1, 10000) AS g")
                try connection.query("CREATE INDEX ON planned (id)")
                try connection.query("ANALYZE planned")
                for run in 0..<8 {
                    try connection.query(Self.generic, [[String(run)]])
                    try connection.query(Self.chosen, [[String(run)]])
                }
                let counts = try connection.query(
                    "SELECT name, generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements")
                func plans(_ name: String) throws -> (generic: Int, custom: Int) {
                    let row = try #require(counts.first { try $0.require("name", as: String.self) == name })
                    return (try row.require("generic"), try row.require("custom"))
                }
                let mode = try connection.query("SHOW plan_cache_mode")[0].require("plan_cache_mode", as: String.self)
                return (try plans(Self.generic.name), try plans(Self.chosen.name), mode)
            }
            #expect(generic.generic == 8 && generic.custom == 0)
            // The comparison case: left to the server, these runs were all planned for their values.
            #expect(chosen.custom == 8)
            // Each statement ran under its own mode, and the last one left the server's default.
            #expect(mode == "auto")
        }
    }

    /// A mode set inside a transaction that rolls back is gone with it: the next run sets it again.
    @Test func aRolledBackModeIsSetAgain() async throws {
        try await TestDatabase.with(migrated: false, poolSize: 1) { database in
            try await database.pool.query("CREATE TABLE planned (id int)")
            struct Abort: Error {}
            await #expect(throws: Abort.self) {
                try await database.pool.transaction { connection in
                    try connection.query(Self.generic, [["1"]])
                    throw Abort()
                }
            }
            let mode = try await database.pool.withConnection { connection in
                try connection.query(Self.generic, [["2"]])
                return try connection.query("SHOW plan_cache_mode")[0].require("plan_cache_mode", as: String.self)
            }
            #expect(mode == "force_generic_plan")
        }
    }
}
