import APNsClient
import Hummingbird
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import Logging
import NIOCore
import PostgresClient
import Prometheus
import ServiceLifecycle

/// The one place the whole gateway is put together: the HTTP application and every service
/// `livegate serve` runs beside it (delivery, housekeeping, planner statistics, quota return, the
/// channel manager, the backlog gauges), over one pool. `livegate serve` runs what `build` returns, and
/// tests assemble the same `GatewayParts`.
package enum Gateway {
    /// `metricsRegistry`: where `GET /metrics` reads from (bootstrapped once, in `main`); nil, or
    /// `settings.metricsEnabled` false, serves no metrics. The pool is closed by the application's
    /// own shutdown, after the services that use it.
    package static func build(
        settings: GatewaySettings, pool: PostgresConnectionPool, metricsRegistry: PrometheusCollectorRegistry?, logger: Logger
    ) -> some ApplicationProtocol {
        logger.info("memory allocator", metadata: ProcessAllocator.metadata)
        logger.info("APNs connections", metadata: connectionMetadata(transport: settings.transport, delivery: settings.delivery))
        return parts(settings: settings, pool: pool, metricsRegistry: metricsRegistry, logger: logger).application()
    }

    /// Every part of the gateway, wired as `build` ships them. `worker`: the delivery engine's name
    /// among the gateways sharing the database; `providerTokens`: the one cache of provider tokens for
    /// pushes, broadcasts and channel management (APNs refuses tokens of one key that change too often);
    /// `clock`: the time messages are accepted at.
    package static func parts(
        settings: GatewaySettings, pool: PostgresConnectionPool, metricsRegistry: PrometheusCollectorRegistry?, logger: Logger,
        worker: String = DeliveryEngine.defaultWorkerName(), providerTokens: ProviderTokenCache = ProviderTokenCache(),
        clock: MessageClock = .system
    ) -> GatewayParts {
        var configuration = settings.http
        if settings.metricsEnabled, let metricsRegistry {
            configuration.metrics = MetricsExposure(registry: metricsRegistry, address: settings.metricsAddress)
        }
        let transport = settings.transport
        let doorbell = DeliveryDoorbell()
        let stops = DispatchStopSignals()
        // Updates committed here go to this gateway's engine without a claim.
        let handoff = settings.deliveryEnabled ? DeliveryHandoff(doorbell: doorbell, stops: stops) : nil
        let commits = DeliveryCommits(doorbell: doorbell, stops: stops, handoff: handoff)
        let events = PostgresEventInterest(pool: pool)
        let reads = settings.readDatabase.map {
            PostgresConnectionPool(configuration: $0, fallback: pool, logger: Logger(label: "livegate.postgres.reads"))
        }
        var dependencies = GatewayDependencies.postgres(
            pool: pool, reads: reads, dispatchCommit: settings.dispatchCommit, commits: commits,
            channelManager: APNsChannelManager(tokens: providerTokens, transport: transport), events: events)
        dependencies.clock = clock
        // Shut down in reverse order: the server drains, delivery hands back what it holds, housekeeping
        // stops, unspent quota goes back, then the pool closes.
        var services: [any Service] = [
            PostgresPoolService(pool: pool),
            QuotaReturnService(limiter: dependencies.rateLimiter),
            QuotaReturnService(limiter: dependencies.usersTrackRateLimiter),
            QuotaReturnService(limiter: dependencies.tokenTagRateLimiter),
            ChannelManagerService(manager: dependencies.channelManager),
            HousekeepingService(
                pool: pool, tokenLifetime: settings.delivery.tokenLifetime, logSettings: settings.activityLog,
                eventRetention: settings.eventRetention,
                channels: EndedChannelDeletion(
                    store: dependencies.channels, tenancy: dependencies.tenancy, manager: dependencies.channelManager,
                    logger: logger),
                events: events, logger: logger),
            PeriodicService.plannerStatistics(pool: pool, logger: logger),
            PeriodicService.pushedPagesPruning(pool: pool, logger: logger),
            PeriodicService.unconfirmedStarts(pool: pool, after: settings.startConfirmWindow, events: events, logger: logger),
            // Who subscribes to which events: every gateway writes them within this long of a change.
            PeriodicService(
                every: max(settings.delivery.appCacheTimeToLive, .seconds(1)), logger: logger,
                failure: "could not read event subscriptions"
            ) {
                try await events.reload()
            },
        ]
        // The standby's pool closes just before the primary's.
        if let reads { services.insert(PostgresPoolService(pool: reads), at: 1) }
        if configuration.metrics != nil {
            services.append(PeriodicService.dispatchBacklog(pool: pool, interval: settings.metricsRefresh, logger: logger))
        }
        var engine: DeliveryEngine?
        if settings.deliveryEnabled {
            let delivery = DeliveryEngine(
                queue: PostgresDeliveryQueue(pool: pool, supersedes: settings.delivery.supersedes, events: events),
                tenancy: dependencies.tenancy, sender: APNsSender(tokens: providerTokens, transport: transport),
                settings: settings.delivery, doorbell: doorbell, stops: stops, logger: logger, worker: worker,
                // Its own connection: a crash ends the session, and other gateways take over at once.
                session: PostgresWorkerSession(configuration: settings.database), handoff: handoff)
            services.append(delivery)
            engine = delivery
        }
        if settings.webhooksEnabled {
            services.append(
                WebhookSender(
                    queue: PostgresWebhookQueue(pool: pool), log: PostgresEventLog(pool: pool), settings: settings.webhooks,
                    worker: worker, logger: logger))
        }
        return GatewayParts(
            configuration: configuration, dependencies: dependencies, engine: engine, commits: commits, services: services,
            logger: logger)
    }

    /// What the gateway logs as it starts: the APNs connection settings in force, derived ones included.
    static func connectionMetadata(transport: HTTP2ClientConfiguration, delivery: DeliverySettings) -> Logger.Metadata {
        [
            "connections": "\(transport.maximumConnectionsPerHost)", "max_streams": "\(transport.maximumStreamsPerConnection)",
            "threads": "\(transport.connectionsPerLane.count)", "max_in_flight": "\(delivery.maximumPushesInFlight)",
            "page_size": "\(delivery.pageSize)",
            "closed_stream_resets_unsent": "\(CurlHTTP2Client.leavesClosedStreamResetsUnsent)",
            "cached_socket_checks": "\(CurlHTTP2Client.answersSocketChecksWithinAPass)",
            "timeout_seconds": "\(transport.responseTimeout.components.seconds)",
        ]
    }
}
