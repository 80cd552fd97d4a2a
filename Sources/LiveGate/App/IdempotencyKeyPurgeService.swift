import Logging
import PostgresClient
import ServiceLifecycle

/// Deletes `Idempotency-Key` answers once they are past their 24 hours, so the table holds about a
/// day of keys however busy the gateway is. Several gateways may run it at once: the delete is idempotent.
public struct IdempotencyKeyPurgeService: Service {
    let pool: PostgresConnectionPool
    let interval: Duration
    let logger: Logger

    public init(pool: PostgresConnectionPool, interval: Duration = .seconds(600), logger: Logger) {
        self.pool = pool
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        while !Task.isShuttingDownGracefully {
            do {
                let deleted = try await Self.purgeExpired(pool)
                if deleted > 0 { logger.debug("expired idempotency keys deleted", metadata: ["count": "\(deleted)"]) }
            } catch {
                logger.warning("could not delete expired idempotency keys", metadata: ["error": "\(error)"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }

    /// Deletes keys past retention, in bounded batches so no single statement holds locks for long.
    public static func purgeExpired(_ pool: PostgresConnectionPool, batchSize: Int = 10_000) async throws -> Int {
        var total = 0
        while true {
            let deleted = try await pool.query(
                """
                DELETE FROM idempotency_keys WHERE ctid IN (
                    SELECT ctid FROM idempotency_keys
                    WHERE created_at < now() - make_interval(secs => $1) LIMIT $2)
                """,
                [Int(IdempotencyClaim.retention), batchSize]
            ).affectedRowCount
            total += deleted
            if deleted < batchSize { return total }
        }
    }
}
