import CoreMetrics
import Dispatch
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import Prometheus
import TestSupport
import Testing

/// The pool's metrics, in this process: the pool is made under a task-local `GatewayMetricsFactory`
/// with a registry of the test's own, so nothing is bootstrapped and other tests are not touched.
@Suite("Metrics of the PostgreSQL pool", .requiresPostgres)
struct PoolMetricsTests {
    @Test func connectionsInUseOpenAndWaitsAreCountedExactly() async throws {
        try await TestDatabase.with(migrated: false) { database in
            let factory = GatewayMetricsFactory()
            let applicationName = "pool-metrics-\(UUID().uuidString.prefix(8))"
            let pool = withMetricsFactory(factory) {
                PostgresConnectionPool(
                    configuration: .init(
                        connectionString: database.connectionString, maximumConnections: 1, applicationName: applicationName))
            }
            let scrape = { try PrometheusScrape(factory.registry.emitToString()) }
            #expect(try scrape().value("livegate_db_pool_connections_open") == 0)

            // The pool's one connection is held until `release` is signalled; a second caller waits for it.
            let release = DispatchSemaphore(value: 0)
            let holder = Task {
                try await pool.withConnection { connection in
                    try connection.query("SELECT 1")
                    release.wait()  // on the pool's own thread, never the cooperative pool
                }
            }
            try await DeliveryCrashTests.waitUntil("the connection is in use") {
                try scrape().value("livegate_db_pool_connections_in_use") == 1
            }
            let waiter = Task { try await pool.query("SELECT 2") }
            try await DeliveryCrashTests.waitUntil("the second caller waits") {
                try scrape().value("livegate_db_pool_waits_total") == 1
            }
            let during = try scrape()
            #expect(during.value("livegate_db_pool_connections_open") == 1)
            #expect(during.value("livegate_db_pool_connections_in_use") == 1)
            #expect(during.value("livegate_db_pool_wait_duration_seconds_count") == 0, "recorded when the wait ends")
            try await Task.sleep(for: .milliseconds(200))
            release.signal()
            try await holder.value
            _ = try await waiter.value

            let after = try scrape()
            #expect(after.value("livegate_db_pool_connections_in_use") == 0)
            #expect(after.value("livegate_db_pool_connections_open") == 1)
            #expect(after.value("livegate_db_pool_waits_total") == 1)
            #expect(after.value("livegate_db_pool_wait_duration_seconds_count") == 1)
            #expect(after.value("livegate_db_pool_wait_duration_seconds_sum") >= 0.2)
            #expect(after.value("livegate_db_pool_wait_duration_seconds_bucket", ["le": "0.1"]) == 0)
            #expect(after.helps["livegate_db_pool_waits_total"] == GatewayMetrics.databaseWaits.help)

            // The server drops the connection: the pool finds it broken, opens another, and counts one open.
            let killed = try await database.pool.query(
                "SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1",
                [applicationName])
            #expect(try killed[0].require("n", as: Int.self) == 1)
            try await Task.sleep(for: .milliseconds(100))
            _ = try await pool.query("SELECT 3")
            #expect(try scrape().value("livegate_db_pool_connections_open") == 1)
            #expect(try scrape().value("livegate_db_pool_connections_in_use") == 0)

            await pool.close()
            #expect(try scrape().value("livegate_db_pool_connections_open") == 0)
        }
    }
}
