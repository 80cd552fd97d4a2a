import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import Logging
import PostgresClient

/// A fresh, migrated database of a test's own, dropped when the test ends.
package struct TestDatabase: Sendable {
    package let name: String
    package let connectionString: String
    package let pool: PostgresConnectionPool

    package var dependencies: GatewayDependencies { .postgres(pool: pool) }
    package var tenancy: PostgresTenancyRepository { PostgresTenancyRepository(pool: pool) }
    package var apiKeys: PostgresAPIKeyRepository { PostgresAPIKeyRepository(pool: pool) }

    /// Runs `body` with a new database copied from the migrated template.
    package static func with<Result: Sendable>(
        migrated: Bool = true, poolSize: Int = 4, _ body: (TestDatabase) async throws -> Result
    ) async throws -> Result {
        let name = "lg_test_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16))"
        if migrated {
            try await TestPostgres.admin("CREATE DATABASE \(name) TEMPLATE \(try await MigratedTemplate.shared.name())")
        } else {
            try await TestPostgres.admin("CREATE DATABASE \(name)")
        }
        let connectionString = try TestPostgres.connectionString(database: name)
        let pool = PostgresConnectionPool(
            configuration: .init(
                connectionString: connectionString, maximumConnections: poolSize,
                connectTimeoutSeconds: TestPostgres.connectTimeoutSeconds, callTimeout: TestPostgres.callTimeout))
        let database = TestDatabase(name: name, connectionString: connectionString, pool: pool)
        do {
            let result = try await body(database)
            await database.drop()
            return result
        } catch {
            await database.drop()
            throw error
        }
    }

    /// Runs `body` with database `name` at `connectionString` (kept, not dropped) migrated on a pool of
    /// `configuration`, the pool closed when `body` ends: for servers a test starts, stops or fails over.
    package static func migrated<Result: Sendable>(
        name: String, configuration: PostgresConfiguration, _ body: (TestDatabase) async throws -> Result
    ) async throws -> Result {
        let pool = PostgresConnectionPool(configuration: configuration)
        do {
            try await Migrator(pool: pool, logger: Logger(label: "test.migrator")).migrate()
            let result = try await body(TestDatabase(name: name, connectionString: configuration.connectionString, pool: pool))
            await pool.close()
            return result
        } catch {
            await pool.close()
            throw error
        }
    }

    private func drop() async {
        await pool.close()
        try? await TestPostgres.admin("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }
}

extension TestDatabase {
    /// The integer a scalar query (`sql`) answers, such as a `count(*)`.
    package func count(_ sql: String, _ parameters: [(any PostgresBindable)?] = []) async throws -> Int {
        try await pool.query("SELECT (\(sql))::int AS n", parameters)[0].require("n")
    }
}
