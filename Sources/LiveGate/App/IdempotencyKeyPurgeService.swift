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
        try await BatchedDelete.run(
            pool, from: "idempotency_keys", where: "created_at < now() - make_interval(secs => $1)",
            seconds: IdempotencyClaim.retention, batchSize: batchSize)
    }
}
