import PostgresClient
import ServiceLifecycle

/// Closes the connection pool when the application shuts down, after the server has drained.
public struct PostgresPoolService: Service {
    let pool: PostgresConnectionPool

    public init(pool: PostgresConnectionPool) {
        self.pool = pool
    }

    public func run() async throws {
        try? await gracefulShutdown()
        await pool.close()
    }
}
