import Foundation
import LiveGate
import Logging
import PostgresClient

/// The PostgreSQL server the test command started. `LIVEGATE_TEST_PG` holds a libpq keyword
/// connection string without a database name, e.g. `host=127.0.0.1 port=54329 user=postgres`.
public enum TestPostgres {
    public static var serverConnectionString: String {
        guard let value = ProcessInfo.processInfo.environment["LIVEGATE_TEST_PG"], !value.isEmpty else {
            fatalError("LIVEGATE_TEST_PG is not set: run the tests with scripts/test.sh, which starts PostgreSQL")
        }
        return value
    }

    public static func connectionString(database: String) -> String {
        "\(serverConnectionString) dbname=\(database)"
    }

    /// Runs administrative statements (CREATE/DROP DATABASE) on the server's `postgres` database.
    static func admin(_ sql: String) async throws {
        try await AdminStatementGate.shared.run {
            let pool = PostgresConnectionPool(
                configuration: .init(
                    connectionString: connectionString(database: "postgres"), maximumConnections: 1,
                    connectTimeoutSeconds: connectTimeoutSeconds))
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
    public static let connectTimeoutSeconds = 30
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
                    connectionString: TestPostgres.connectionString(database: name), maximumConnections: 1,
                    connectTimeoutSeconds: TestPostgres.connectTimeoutSeconds))
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
