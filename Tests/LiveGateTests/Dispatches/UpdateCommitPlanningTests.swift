import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

@Suite("Group commit: the update statement's plan", .requiresPostgres)
struct UpdateCommitPlanningTests {
    /// A quiet gateway commits one update per statement. Left to choose, PostgreSQL found plans for such
    /// small batches cheaper than the generic one and planned the large statement again on every commit.
    @Test func updatesCommittedOneAtATimeReuseOneGenericPlan() async throws {
        try await TestDatabase.with(poolSize: 1) { database in
            let tenant = try await database.makeTenant()
            let store = PostgresDispatchStore(pool: database.pool)
            for score in 0..<8 { try await store.commit(tenant.update(score: score)) }
            // The pool has one connection: the one every commit ran on.
            let plans = try await database.pool.query(
                """
                SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements
                WHERE name = 'livegate_insert_update_dispatches'
                """)
            #expect(try plans[0].require("generic", as: Int.self) == 8)
            #expect(try plans[0].require("custom", as: Int.self) == 0)
            #expect(try await database.count("SELECT count(*) FROM dispatches WHERE status = 'pending'") == 1)
        }
    }
}
