import LiveGateDomain
import LiveGateSchema
import Logging
import PostgresClient

/// Applies the numbered SQL files in `schema/migrations` that the database has not seen yet.
///
/// A session-level advisory lock serializes concurrent starts: the second instance waits, then finds
/// nothing left to do. Each migration runs in its own transaction together with its bookkeeping row.
package struct Migrator: Sendable {
    /// An arbitrary constant that names LiveGate's migration lock among the database's advisory locks.
    static let advisoryLockKey: Int64 = 0x4C69_7665_4761_7465  // "LiveGate"

    let pool: PostgresConnectionPool
    let logger: Logger

    package init(pool: PostgresConnectionPool, logger: Logger) {
        self.pool = pool
        self.logger = logger
    }

    /// Returns the versions it applied, in order (empty when the schema was up to date).
    @discardableResult
    package func migrate() async throws -> [Int] {
        let migrations = try SchemaResources.migrations()
        // A migration may rewrite a large table: no deadline (nothing waits on it but the start).
        let applied = try await pool.withConnection(timeout: .unlimited) { connection -> [Int] in
            try connection.query("SELECT pg_advisory_lock($1)", [Self.advisoryLockKey])
            defer { _ = try? connection.query("SELECT pg_advisory_unlock($1)", [Self.advisoryLockKey]) }
            try connection.query(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version    integer PRIMARY KEY,
                    name       text NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """)
            let done = Set(try connection.query("SELECT version FROM schema_migrations").map { try $0.require("version", as: Int.self) })
            var applied: [Int] = []
            for migration in migrations where !done.contains(migration.version) {
                try connection.query("BEGIN")
                do {
                    try connection.executeScript(migration.sql)
                    try connection.query(
                        "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [migration.version, migration.name])
                    try connection.query("COMMIT")
                } catch {
                    if !connection.isBroken { _ = try? connection.query("ROLLBACK") }
                    throw error
                }
                applied.append(migration.version)
            }
            return applied
        }
        for version in applied {
            logger.info("applied migration", metadata: ["version": "\(version)"])
        }
        return applied
    }
}
