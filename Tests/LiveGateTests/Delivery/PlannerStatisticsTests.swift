import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

/// A prepared statement keeps the plan it got while its table was small; PlannerStatistics refreshes
/// the row counts once the table outgrows them, which gives the statement a plan for its real size.
@Suite("Planner statistics follow a growing dispatch table", .requiresPostgres)
struct PlannerStatisticsTests {
    static let lookup = "SELECT id FROM dispatches WHERE app_id = $1 AND activity_id = $2 AND completed_at IS NULL"

    @Test func aPlanMadeForAFewRowsIsReplacedOnceTheTableOutgrowsIt() async throws {
        try await TestDatabase.with(poolSize: 1) { database in
            let statistics = PlannerStatistics(pool: database.pool)
            try await database.pool.withConnection { connection in
                try Self.insertDispatches(20, on: connection)
                // What autovacuum does after the first rows of a new install.
                _ = try connection.query("ANALYZE dispatches")
                _ = try connection.query("SET plan_cache_mode = force_generic_plan")
                _ = try connection.query("PREPARE lookup(uuid, text) AS \(Self.lookup)")
                #expect(try Self.plan(on: connection).contains("Seq Scan"), "right for 20 rows")

                try Self.insertDispatches(20_000, on: connection)
                _ = try connection.query("SELECT pg_stat_force_next_flush()")
            }
            // Still believed small: the plan reads every row of 20,020 for each lookup.
            let stale = try await database.pool.withConnection { try Self.plan(on: $0) }
            #expect(stale.contains("Seq Scan"))

            #expect(try await statistics.refresh() == ["dispatches"])
            try await database.pool.withConnection { connection in
                let plan = try Self.plan(on: connection)
                #expect(plan.contains("Index Scan using dispatches_activity_idx"), "\(plan)")
                let counted = try connection.query("SELECT reltuples::int AS n FROM pg_class WHERE relname = 'dispatches'")[0]
                #expect(try counted.require("n", as: Int.self) == 20_020)
            }
            // Counts that match the table are left alone.
            #expect(try await statistics.refresh() == [])
        }
    }

    static func insertDispatches(_ count: Int, on connection: PostgresConnection) throws {
        _ = try connection.query(
            """
            INSERT INTO dispatches (id, workspace_id, app_id, event, activity_id, payload, priority, expires_at)
            SELECT gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), 'update', 'order-' || i, '{}', 10,
                   now() + interval '1 hour'
            FROM generate_series(1, $1::int) i
            """, [count])
    }

    /// The prepared lookup's plan (a pool of one connection: the one it was prepared on).
    static func plan(on connection: PostgresConnection) throws -> String {
        try connection.query("EXPLAIN (COSTS OFF) EXECUTE lookup('\(UUID().uuidString.lowercased())', 'order-1')")
            .map { try $0.require("QUERY PLAN", as: String.self) }.joined(separator: "\n")
    }
}
