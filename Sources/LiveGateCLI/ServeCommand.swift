import APNsClient
import ArgumentParser
import Hummingbird
import LiveGate
import Logging
import PostgresClient
import ServiceLifecycle

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Migrate the database, then serve the HTTP API until SIGINT or SIGTERM.")

    @Option(help: "Address to listen on (default: LIVEGATE_HOST or 127.0.0.1).")
    var host: String?

    @Option(help: "Port to listen on (default: LIVEGATE_PORT or 8080).")
    var port: Int?

    func run() async throws {
        // How long keys and apps are kept in memory.
        let lookupCacheTimeToLive = try Settings.duration(
            "LIVEGATE_LOOKUP_CACHE_SECONDS", default: 5, range: 0...3600, unit: .seconds(1))
        let configuration = GatewayConfiguration(
            host: host ?? Settings.environment["LIVEGATE_HOST"] ?? "127.0.0.1",
            port: try port ?? Settings.integer("LIVEGATE_PORT", default: 8080, range: 0...65535),
            maxRequestBodyBytes: try Settings.integer(
                "LIVEGATE_MAX_BODY_BYTES", default: GatewayConfiguration.defaultMaxRequestBodyBytes, range: 1024...(64 << 20)),
            trustedProxies: try Settings.networks("LIVEGATE_TRUSTED_PROXIES"),
            lookupCacheTimeToLive: lookupCacheTimeToLive,
            rateLimiting: try Settings.switch("LIVEGATE_RATE_LIMITS", default: true),
            channelLimits: ChannelLimits(
                channelsPerApp: try Settings.integer("LIVEGATE_CHANNELS_PER_APP", default: 10_000, range: 1...10_000)),
            channelRetention: try Settings.duration(
                "LIVEGATE_CHANNEL_RETENTION_SECONDS", default: 3600, range: 0...(30 * 86_400), unit: .seconds(1)),
            metrics: try Settings.switch("LIVEGATE_METRICS", default: true)
                ? MetricsExposure(
                    registry: LiveGateMain.metrics.registry, address: try Settings.address("LIVEGATE_METRICS_ADDRESS"))
                : nil,
            tokenTagLimits: TokenTagLimits.Settings(
                perApp: try Settings.integer(
                    "LIVEGATE_TOKEN_TAG_RATE_PER_APP", default: TokenTagLimits.Settings.defaultPerApp, range: 0...100_000_000),
                perAddress: try Settings.integer(
                    "LIVEGATE_TOKEN_TAG_RATE_PER_ADDRESS", default: TokenTagLimits.Settings.defaultPerAddress,
                    range: 0...100_000_000)))
        // Off only to measure what supersession saves (bench/freshness).
        let supersedes = try Settings.switch("LIVEGATE_SUPERSESSION", default: true)
        let dispatchCommit = DispatchCommitSettings(
            maximumConcurrentStatements: try Settings.integer("LIVEGATE_COMMIT_STATEMENTS", default: 1, range: 1...64),
            maximumRowsPerStatement: try Settings.integer("LIVEGATE_COMMIT_BATCH_ROWS", default: 128, range: 1...1000),
            supersedes: supersedes)
        // The pool is closed by the application's own shutdown, not by `withDatabase`.
        let database = try Settings.database()
        let pool = PostgresConnectionPool(configuration: database, logger: .init(label: "livegate.postgres"))
        let logger = Logger(label: "livegate")
        do {
            try await Migrator(pool: pool, logger: logger).migrate()
        } catch {
            await pool.close()
            throw error
        }
        let transport = try DeliveryEnvironment.transport()
        var delivery = try DeliveryEnvironment.settings(transport: transport)
        delivery.appCacheTimeToLive = lookupCacheTimeToLive
        delivery.supersedes = supersedes
        delivery.channelRetention = configuration.channelRetention
        logger.info("APNs connections", metadata: DeliveryEnvironment.metadata(transport: transport, delivery: delivery))
        let doorbell = DeliveryDoorbell()
        let stops = DispatchStopSignals()
        // One provider token per key for pushes, broadcasts and channel management: APNs refuses
        // tokens of one key that change too often.
        let providerTokens = ProviderTokenCache()
        let dependencies = GatewayDependencies.postgres(
            pool: pool, dispatchCommit: dispatchCommit, doorbell: doorbell, stops: stops,
            channelManager: APNsChannelManager(tokens: providerTokens, transport: transport))
        // Shut down in reverse order: the server drains, delivery hands back what it holds, housekeeping
        // stops, unspent quota goes back, then the pool closes.
        var services: [any Service] = [
            PostgresPoolService(pool: pool),
            QuotaReturnService(limiter: dependencies.rateLimiter),
            QuotaReturnService(limiter: dependencies.tokenTagRateLimiter),
            ChannelManagerService(manager: dependencies.channelManager),
            HousekeepingService(
                pool: pool, tokenLifetime: delivery.tokenLifetime, logSettings: try DeliveryEnvironment.activityLog(),
                channels: EndedChannelDeletion(
                    store: dependencies.channels, tenancy: dependencies.tenancy, manager: dependencies.channelManager,
                    logger: logger),
                logger: logger),
            PlannerStatisticsService(pool: pool, logger: logger),
        ]
        if configuration.metrics != nil {
            services.append(
                DispatchBacklogService(
                    pool: pool,
                    interval: try Settings.duration(
                        "LIVEGATE_METRICS_REFRESH_SECONDS", default: 5, range: 1...3600, unit: .seconds(1)),
                    logger: logger))
        }
        if try Settings.switch("LIVEGATE_DELIVERY", default: true) {
            services.append(
                DeliveryEngine(
                    queue: PostgresDeliveryQueue(pool: pool, supersedes: supersedes), tenancy: dependencies.tenancy,
                    sender: APNsSender(tokens: providerTokens, transport: transport), settings: delivery,
                    doorbell: doorbell, stops: stops, logger: logger,
                    // Its own connection: a crash ends the session, and other gateways take over at once.
                    session: PostgresWorkerSession(configuration: database)))
        }
        let app = buildApplication(configuration: configuration, dependencies: dependencies, logger: logger, services: services)
        try await app.runService()
    }
}
