import Hummingbird
import LiveGateDomain
import Logging
import NIOCore
import ServiceLifecycle

/// Builds the gateway's router: the middleware every request passes, then each controller's routes.
/// `extraRoutes` lets a caller (tests, later features) add routes behind the same middleware.
package func buildRouter(
    configuration: GatewayConfiguration,
    dependencies: GatewayDependencies,
    extraRoutes: (Router<LiveGateRequestContext>, APIKeyAuthenticator) -> Void = { _, _ in }
) -> (router: Router<LiveGateRequestContext>, routeTable: RouteTable) {
    let router = Router(context: LiveGateRequestContext.self)
    let routeTable = RouteTable()
    let authenticator = APIKeyAuthenticator(
        repository: dependencies.apiKeys, cacheTimeToLive: configuration.lookupCacheTimeToLive)
    let apps = AppDirectory(repository: dependencies.tenancy, cacheTimeToLive: configuration.lookupCacheTimeToLive)
    let activityTypes = ActivityTypeDirectory(store: dependencies.activityTypes, cacheTimeToLive: configuration.lookupCacheTimeToLive)

    router.add(middleware: AccessLogMiddleware())
    router.add(middleware: MetricsMiddleware())
    router.add(middleware: ErrorMiddleware(routes: routeTable))
    if let deadline = dependencies.requestDeadline { router.add(middleware: RequestDeadlineMiddleware(deadline: deadline)) }
    router.add(
        middleware: RequestLimitsMiddleware(
            maxBodyBytes: configuration.maxRequestBodyBytes,
            clientAddresses: ClientAddressResolver(trustedProxies: configuration.trustedProxies), routes: routeTable))

    router.addRoutes(HealthController(checkDatabase: dependencies.checkDatabase).routes)
    if let metrics = configuration.metrics, metrics.address == nil {
        router.addRoutes(MetricsController(registry: metrics.registry).routes)
    }
    router.addRoutes(APIKeyController(authenticator: authenticator).routes)
    // One instance: the SDK's routes count against the same limits.
    let sdkLimits = TokenTagLimits(settings: configuration.tokenTagLimits, apps: dependencies.tokenTagRateLimiter)
    router.addRoutes(
        PushTokenTagController(apps: apps, tokens: dependencies.tokens, limits: sdkLimits, clock: dependencies.clock).routes)
    router.addRoutes(
        DeviceStateController(apps: apps, states: dependencies.deviceStates, limits: sdkLimits, clock: dependencies.clock).routes)
    router.addRoutes(PushChannelController(apps: apps, store: dependencies.channels).routes)
    let rateLimit =
        configuration.rateLimiting
        ? RateLimitMiddleware(
            limiter: dependencies.rateLimiter,
            limits: WorkspaceLimits(repository: dependencies.tenancy, cacheTimeToLive: configuration.lookupCacheTimeToLive),
            clock: dependencies.clock)
        : nil
    let usersTrackRateLimit =
        configuration.rateLimiting
        ? RateLimitMiddleware(
            limiter: dependencies.usersTrackRateLimiter,
            limits: WorkspaceLimits(
                repository: dependencies.tenancy, kind: .usersTrack, cacheTimeToLive: configuration.lookupCacheTimeToLive),
            clock: dependencies.clock)
        : nil
    router.addRoutes(
        LiveActivityController(
            authenticator: authenticator, apps: apps, dispatches: dependencies.dispatches, channels: dependencies.channels,
            segments: dependencies.segments, activityTypes: activityTypes, channelRetention: configuration.channelRetention,
            clock: dependencies.clock, rateLimit: rateLimit
        ).routes)
    router.addRoutes(
        DispatchController(authenticator: authenticator, records: dependencies.dispatchRecords, commits: dependencies.commits)
            .routes)
    router.addRoutes(
        ActivityLogController(authenticator: authenticator, apps: apps, log: dependencies.activityLog).routes)
    router.addRoutes(
        BroadcastChannelController(
            authenticator: authenticator, apps: apps, store: dependencies.channels, manager: dependencies.channelManager,
            limits: configuration.channelLimits
        ).routes)
    router.addRoutes(
        ActivityController(authenticator: authenticator, apps: apps, records: dependencies.activityRecords).routes)
    router.addRoutes(
        PushToStartHealthController(authenticator: authenticator, apps: apps, records: dependencies.pushToStartHealth).routes)
    router.addRoutes(
        UsersTrackController(authenticator: authenticator, attributes: dependencies.userAttributes, rateLimit: usersTrackRateLimit).routes)
    router.addRoutes(SegmentController(authenticator: authenticator, segments: dependencies.segments).routes)
    router.addRoutes(ActivityTypeController(authenticator: authenticator, apps: apps, types: activityTypes).routes)
    router.addRoutes(PriorityBudgetController(authenticator: authenticator, apps: apps, tenancy: dependencies.tenancy).routes)
    if let events = dependencies.events {
        router.addRoutes(EventsController(authenticator: authenticator, apps: apps, events: events).routes)
    }
    if let webhooks = dependencies.webhooks {
        router.addRoutes(
            WebhookController(
                authenticator: authenticator, apps: apps, webhooks: webhooks, allowsHTTP: configuration.webhookAllowsHTTP
            ).routes)
    }
    router.addRoutes(DashboardController().routes)
    extraRoutes(router, authenticator)

    routeTable.load(from: router)
    return (router, routeTable)
}

/// Assembles the whole gateway: router, server settings, and the services that live as long as it does.
package func buildApplication(
    configuration: GatewayConfiguration,
    dependencies: GatewayDependencies,
    logger: Logger,
    services: [any Service] = [],
    extraRoutes: (Router<LiveGateRequestContext>, APIKeyAuthenticator) -> Void = { _, _ in },
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let (router, _) = buildRouter(configuration: configuration, dependencies: dependencies, extraRoutes: extraRoutes)
    var app = Application(
        router: router,
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.port),
            serverName: configuration.serverName),
        onServerRunning: onServerRunning,
        logger: logger)
    // The metrics listener first: it stops last, so a drain can still be watched.
    app.addServices(metricsServer(configuration, logger: logger) + services)
    return app
}

/// `GET /metrics` alone on an address of its own, when one is configured.
func metricsServer(_ configuration: GatewayConfiguration, logger: Logger) -> [any Service] {
    guard let metrics = configuration.metrics, let address = metrics.address else { return [] }
    let router = Router()
    router.addRoutes(MetricsController(registry: metrics.registry).routes)
    return [
        Application(
            router: router,
            configuration: .init(address: .hostname(address.host, port: address.port), serverName: configuration.serverName),
            logger: logger)
    ]
}
