import LiveGateAPI
import LiveGateDomain
import LiveGateStore
import PostgresClient
import ServiceLifecycle

/// Closes the connection pool when the application shuts down, after the server has drained.
package struct PostgresPoolService: Service {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) {
        self.pool = pool
    }

    package func run() async throws {
        try? await gracefulShutdown()
        await pool.close()
    }
}
