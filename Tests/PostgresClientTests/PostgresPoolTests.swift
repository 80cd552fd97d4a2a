import Foundation
import NIOConcurrencyHelpers
import PostgresClient
import TestSupport
import Testing

@Suite("The connection pool: transactions, bounds, recovery", .requiresPostgres)
struct PostgresPoolTests {
    @Test func transactionCommitsOnSuccessAndRollsBackOnError() async throws {
        try await TestDatabase.with(migrated: false) { database in
            try await database.pool.query("CREATE TABLE ledger (n int)")
            try await database.pool.transaction { connection in
                try connection.query("INSERT INTO ledger VALUES (1)")
                try connection.query("INSERT INTO ledger VALUES (2)")
            }
            struct Abort: Error {}
            await #expect(throws: Abort.self) {
                try await database.pool.transaction { connection in
                    try connection.query("INSERT INTO ledger VALUES (3)")
                    throw Abort()
                }
            }
            let rows = try await database.pool.query("SELECT coalesce(sum(n), 0)::int AS total, count(*)::int AS c FROM ledger")
            #expect(try rows[0].require("total", as: Int.self) == 3)
            #expect(try rows[0].require("c", as: Int.self) == 2)
        }
    }

    @Test func neverOpensMoreThanItsMaximum() async throws {
        try await TestDatabase.with(migrated: false, poolSize: 3) { database in
            let applicationName = "pool-bound-\(UUID().uuidString.prefix(8))"
            let pool = PostgresConnectionPool(
                configuration: .init(
                    connectionString: database.connectionString, maximumConnections: 3, applicationName: applicationName))
            let peak = NIOLockedValueBox(0)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<12 {
                    group.addTask {
                        let rows = try await pool.query(
                            "SELECT (SELECT count(*)::int FROM pg_stat_activity WHERE application_name = $1) AS n, pg_sleep(0.05)",
                            [applicationName])
                        let open = try rows[0].require("n", as: Int.self)
                        peak.withLockedValue { $0 = max($0, open) }
                    }
                }
                try await group.waitForAll()
            }
            await pool.close()
            #expect(peak.withLockedValue { $0 } == 3)
        }
    }

    @Test func recoversWhenTheServerDropsItsConnections() async throws {
        try await TestDatabase.with(migrated: false) { database in
            let applicationName = "pool-recover-\(UUID().uuidString.prefix(8))"
            let pool = PostgresConnectionPool(
                configuration: .init(
                    connectionString: database.connectionString, maximumConnections: 2, applicationName: applicationName))
            // Open two connections, so both sit idle in the pool.
            async let first: PostgresRows = pool.query("SELECT pg_sleep(0.05)")
            async let second: PostgresRows = pool.query("SELECT pg_sleep(0.05)")
            _ = try await (first, second)

            // What a server restart does to them: every backend is terminated.
            let killed = try await database.pool.query(
                "SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1",
                [applicationName])
            #expect(try killed[0].require("n", as: Int.self) == 2)
            try await Task.sleep(for: .milliseconds(100))

            // Both stale connections are found broken and replaced; the callers see no error.
            for _ in 0..<3 {
                let rows = try await pool.query("SELECT 42 AS answer")
                #expect(try rows[0].require("answer", as: Int.self) == 42)
            }
            await pool.close()
        }
    }

    @Test func reconnectsWithinASecondOfTheServersReturn() async throws {
        let cluster = try await DisposablePostgres.start()
        let pool = PostgresConnectionPool(
            configuration: .init(connectionString: cluster.connectionString, maximumConnections: 2, connectTimeoutSeconds: 2))
        do {
            try await pool.query("SELECT 1")
            // A statement under way when the server shuts down, and the calls made while it is down, all
            // say the database is unavailable, unlike a statement it refuses.
            let interrupted = Task { try await pool.query("SELECT pg_sleep(30)") }
            try await Task.sleep(for: .milliseconds(300))
            try await cluster.stop()
            let cut = await #expect(throws: PostgresError.self) { _ = try await interrupted.value }
            #expect(cut?.isDatabaseUnavailable == true, "\(String(describing: cut))")
            let whileDown = await #expect(throws: PostgresError.self) { try await pool.query("SELECT 1") }
            #expect(whileDown?.code == .connectionFailed)
            #expect(whileDown?.isDatabaseUnavailable == true)

            try await cluster.start()
            // The first call after the server's return succeeds: no backoff or broken connection refuses it.
            let rows = try await pool.query("SELECT 2 AS two")
            #expect(try rows[0].require("two", as: Int.self) == 2)
            let refused = await #expect(throws: PostgresError.self) { try await pool.query("SELECT * FROM no_such_table") }
            #expect(refused?.sqlState == "42P01")
            #expect(refused?.isDatabaseUnavailable == false, "a refused statement is not an outage")
        } catch {
            Issue.record(error)
        }
        await pool.close()
        await cluster.remove()
    }

    @Test func closedPoolRefusesWork() async throws {
        try await TestDatabase.with(migrated: false) { database in
            let pool = PostgresConnectionPool(
                configuration: .init(connectionString: database.connectionString, callTimeout: TestPostgres.callTimeout))
            try await pool.query("SELECT 1")
            await pool.close()
            let error = await #expect(throws: PostgresError.self) { try await pool.query("SELECT 1") }
            #expect(error?.code == .poolClosed)
        }
    }

    @Test func blockingCallsDoNotRunOnTheCooperativePool() async throws {
        try await TestDatabase.with(migrated: false) { database in
            // Linux names each thread in /proc; NIOThreadPool's threads are called TP-#n.
            let threadName = try await database.pool.withConnection { _ in
                (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            }
            // NIOThreadPool names its threads; Swift's cooperative pool threads are not NIO's.
            #expect(threadName.contains("TP-"))
        }
    }
}
