import ArgumentParser
import Hummingbird
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import Logging
import PostgresClient

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Migrate the database, then serve the HTTP API until SIGINT or SIGTERM.")

    @Option(help: "Address to listen on (default: LIVEGATE_HOST or 127.0.0.1).")
    var host: String?

    @Option(help: "Port to listen on (default: LIVEGATE_PORT or 8080).")
    var port: Int?

    func run() async throws {
        let settings = try readingSettings { try GatewaySettings(host: host, port: port) }
        // The pool is closed by the application's own shutdown, not by `withDatabase`.
        let pool = PostgresConnectionPool(configuration: settings.database, logger: .init(label: "livegate.postgres"))
        let logger = Logger(label: "livegate")
        do {
            try await Migrator(pool: pool, logger: logger).migrate()
        } catch {
            await pool.close()
            throw error
        }
        let gateway = Gateway.build(settings: settings, pool: pool, metricsRegistry: LiveGateMain.metrics.registry, logger: logger)
        try await gateway.runService()
    }
}
