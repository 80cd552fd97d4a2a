import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import Logging
import PostgresClient
import Testing

/// The PostgreSQL server the test command started. `LIVEGATE_TEST_PG` holds a libpq keyword
/// connection string without a database name, e.g. `host=127.0.0.1 port=54329 user=postgres`.
package enum TestPostgres {
    /// Why a test that needs PostgreSQL does not run without it.
    package static let missing: Comment = "LIVEGATE_TEST_PG is not set: run the tests with scripts/test.sh, which starts PostgreSQL"

    /// Nil when no server is configured.
    static var configuredServer: String? {
        ProcessInfo.processInfo.environment["LIVEGATE_TEST_PG"].flatMap { $0.isEmpty ? nil : $0 }
    }

    package static var isConfigured: Bool { configuredServer != nil }

    /// The server's connection string; without one the current test is cancelled (skipped, with why),
    /// for a test that reaches the database without the `.requiresPostgres` trait.
    static func serverConnectionString() throws -> String {
        guard let server = configuredServer else { try Test.cancel(missing) }
        return server
    }

    package static func connectionString(database: String) throws -> String {
        "\(try serverConnectionString()) dbname=\(database)"
    }

    /// Runs administrative statements (CREATE/DROP DATABASE) on the server's `postgres` database.
    static func admin(_ sql: String) async throws {
        try await AdminStatementGate.shared.run {
            let pool = PostgresConnectionPool(
                configuration: .init(
                    connectionString: try connectionString(database: "postgres"), maximumConnections: 1,
                    connectTimeoutSeconds: connectTimeoutSeconds, callTimeout: callTimeout))
            do {
                try await pool.query(sql)
                await pool.close()
            } catch {
                await pool.close()
                throw error
            }
        }
    }

    /// Longer than a gateway's: every test starts at once on two cores, and a slow connection here is
    /// load, not the failure under test.
    package static let connectTimeoutSeconds = 30
    /// The tests' own calls (setting up, reading outcomes) for the same reason: a call that outlasts a
    /// gateway's deadline here is load, unless a test is about deadlines and sets its own.
    package static let callTimeout: Duration = .seconds(120)
}

/// One migrated template per test process; every test database is a copy of it, which is far faster
/// than migrating each one.
actor MigratedTemplate {
    static let shared = MigratedTemplate()
    private var ready: Task<String, any Error>?

    func name() async throws -> String {
        if let ready { return try await ready.value }
        let task = Task<String, any Error> {
            let name = "lg_template_\(getpid())_\(UInt32.random(in: 0...UInt32.max))"
            try await TestPostgres.admin("CREATE DATABASE \(name)")
            let pool = PostgresConnectionPool(
                configuration: .init(
                    connectionString: try TestPostgres.connectionString(database: name), maximumConnections: 1,
                    connectTimeoutSeconds: TestPostgres.connectTimeoutSeconds, callTimeout: TestPostgres.callTimeout))
            do {
                try await Migrator(pool: pool, logger: Logger(label: "test.migrator")).migrate()
                await pool.close()
            } catch {
                await pool.close()
                throw error
            }
            return name
        }
        ready = task
        return try await task.value
    }
}

extension Trait where Self == ConditionTrait {
    /// The suite's tests need the PostgreSQL server the test command starts: without one they are
    /// skipped, saying so, instead of failing one by one.
    package static var requiresPostgres: Self { .enabled(if: TestPostgres.isConfigured, TestPostgres.missing) }
}
