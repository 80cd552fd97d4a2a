import APNsClient
import Foundation
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient

/// Everything `livegate serve` runs on, read from the environment in one place (docs/configuration.md):
/// each setting is read once, here, with its one default, and handed to whatever uses it.
package struct GatewaySettings: Sendable {
    /// The HTTP side; `http.metrics` is filled in by `Gateway.build` from `metricsAddress`.
    package var http: GatewayConfiguration
    /// `GET /metrics` served at all (`LIVEGATE_METRICS`), and where (nil: on the gateway's port).
    package var metricsEnabled: Bool
    package var metricsAddress: (host: String, port: Int)?
    /// How often the backlog gauges are read from PostgreSQL.
    package var metricsRefresh: Duration
    package var database: PostgresConfiguration
    /// A standby for the read-only routes (`DATABASE_READ_URL`); nil: the primary serves them.
    package var readDatabase: PostgresConfiguration?
    /// The APNs connections.
    package var transport: HTTP2ClientConfiguration
    /// Delivery runs in this process (off: the gateway only accepts; another one delivers).
    package var deliveryEnabled: Bool
    package var delivery: DeliverySettings
    package var dispatchCommit: DispatchCommitSettings
    package var activityLog: ActivityLogSettings
    /// How long after a push-to-start finished its devices have to confirm it (`UnconfirmedStarts`).
    package var startConfirmWindow: Duration
    /// How long events are kept for webhooks and `GET /events`.
    package var eventRetention: Duration = .seconds(7 * 86_400)
    /// Webhooks are sent from this process (off: another gateway sends them).
    package var webhooksEnabled: Bool
    package var webhooks: WebhookSettings

    /// `host` and `port`, when given (command-line flags), win over `LIVEGATE_HOST` and `LIVEGATE_PORT`.
    package init(_ reader: SettingsReader = SettingsReader(), host: String? = nil, port: Int? = nil) throws {
        let lookupCacheTimeToLive = try reader.duration(
            "LIVEGATE_LOOKUP_CACHE_SECONDS", default: 5, range: 0...3600, unit: .seconds(1))
        let channelRetention = try reader.duration(
            "LIVEGATE_CHANNEL_RETENTION_SECONDS", default: 3600, range: 0...(30 * 86_400), unit: .seconds(1))
        // Off only to measure what supersession saves (bench/freshness, bench/tracking).
        let supersedes = try reader.switch("LIVEGATE_SUPERSESSION", default: true)
        http = GatewayConfiguration(
            host: host ?? reader["LIVEGATE_HOST"] ?? "127.0.0.1",
            port: try port ?? reader.integer("LIVEGATE_PORT", default: 8080, range: 0...65535),
            maxRequestBodyBytes: try reader.integer(
                "LIVEGATE_MAX_BODY_BYTES", default: GatewayConfiguration.defaultMaxRequestBodyBytes, range: 1024...(64 << 20)),
            trustedProxies: try reader.networks("LIVEGATE_TRUSTED_PROXIES"),
            lookupCacheTimeToLive: lookupCacheTimeToLive,
            rateLimiting: try reader.switch("LIVEGATE_RATE_LIMITS", default: true),
            channelLimits: ChannelLimits(
                channelsPerApp: try reader.integer("LIVEGATE_CHANNELS_PER_APP", default: 10_000, range: 1...10_000)),
            channelRetention: channelRetention,
            tokenTagLimits: TokenTagLimits.Settings(
                perApp: try reader.integer(
                    "LIVEGATE_TOKEN_TAG_RATE_PER_APP", default: TokenTagLimits.Settings.defaultPerApp, range: 0...100_000_000),
                perAddress: try reader.integer(
                    "LIVEGATE_TOKEN_TAG_RATE_PER_ADDRESS", default: TokenTagLimits.Settings.defaultPerAddress,
                    range: 0...100_000_000)))
        metricsEnabled = try reader.switch("LIVEGATE_METRICS", default: true)
        metricsAddress = try reader.address("LIVEGATE_METRICS_ADDRESS")
        metricsRefresh = try reader.duration("LIVEGATE_METRICS_REFRESH_SECONDS", default: 5, range: 1...3600, unit: .seconds(1))
        database = try reader.database()
        readDatabase = try reader.readDatabase()
        transport = try Self.transport(reader)
        deliveryEnabled = try reader.switch("LIVEGATE_DELIVERY", default: true)
        delivery = try Self.delivery(reader, transport: transport)
        delivery.appCacheTimeToLive = lookupCacheTimeToLive
        delivery.supersedes = supersedes
        delivery.channelRetention = channelRetention
        dispatchCommit = DispatchCommitSettings(
            maximumConcurrentStatements: try reader.integer("LIVEGATE_COMMIT_STATEMENTS", default: 1, range: 1...64),
            maximumRowsPerStatement: try reader.integer("LIVEGATE_COMMIT_BATCH_ROWS", default: 128, range: 1...1000),
            supersedes: supersedes)
        activityLog = ActivityLogSettings(
            retention: try reader.duration("LIVEGATE_ACTIVITY_LOG_RETENTION_HOURS", default: 60, range: 1...8760, unit: .seconds(3600)))
        startConfirmWindow = try reader.duration(
            "LIVEGATE_START_CONFIRM_SECONDS", default: 300, range: 1...86_400, unit: .seconds(1))
        eventRetention = try reader.duration(
            "LIVEGATE_EVENTS_RETENTION_HOURS", default: 168, range: 1...8760, unit: .seconds(3600))
        webhooksEnabled = try reader.switch("LIVEGATE_WEBHOOKS", default: true)
        webhooks = try Self.webhooks(reader)
        http.webhookAllowsHTTP = try reader.switch("LIVEGATE_WEBHOOK_ALLOW_HTTP", default: false)
    }

    private static func webhooks(_ reader: SettingsReader) throws -> WebhookSettings {
        WebhookSettings(
            pollInterval: try reader.duration(
                "LIVEGATE_WEBHOOK_POLL_MILLISECONDS", default: 500, range: 50...60_000, unit: .milliseconds(1)),
            timeout: try reader.duration("LIVEGATE_WEBHOOK_TIMEOUT_SECONDS", default: 10, range: 1...300, unit: .seconds(1)),
            retryPeriod: try reader.duration("LIVEGATE_WEBHOOK_RETRY_HOURS", default: 24, range: 1...720, unit: .seconds(3600)),
            concurrency: try reader.integer("LIVEGATE_WEBHOOK_CONCURRENCY", default: 8, range: 1...256))
    }

    private static func transport(_ reader: SettingsReader) throws -> HTTP2ClientConfiguration {
        var transport = HTTP2ClientConfiguration()
        transport.trustedCAFile = reader["LIVEGATE_APNS_CA_FILE"]
        transport.responseTimeout = try reader.duration("LIVEGATE_APNS_TIMEOUT_SECONDS", default: 30, range: 1...600, unit: .seconds(1))
        transport.maximumConnectionsPerHost = try reader.integer(
            "LIVEGATE_APNS_CONNECTIONS", default: transport.maximumConnectionsPerHost, range: 1...64)
        transport.maximumStreamsPerConnection = try reader.integer(
            "LIVEGATE_APNS_MAX_STREAMS", default: transport.maximumStreamsPerConnection, range: 1...10_000)
        // One libcurl thread per core by default: one thread tops out near 20,000 pushes a second.
        transport.threads = try reader.integer(
            "LIVEGATE_APNS_THREADS", default: min(transport.maximumConnectionsPerHost, ProcessInfo.processInfo.activeProcessorCount),
            range: 1...64)
        return transport
    }

    /// `transport`: the APNs connections, whose streams make the default page size and in-flight limit.
    private static func delivery(_ reader: SettingsReader, transport: HTTP2ClientConfiguration) throws -> DeliverySettings {
        var settings = DeliverySettings()
        // At real network latency what limits delivery is how many pushes wait for APNs at once. Each
        // stream that an answer frees should find its next push already waiting in the HTTP/2 client,
        // not in a batch still held by a page's last answers: by default twice what the connections'
        // streams carry is handed over, and a page is as large as what they carry (at least 1,000), so
        // that one fan-out's two pages can fill them.
        let streams = transport.maximumTransfersInProgress
        settings.streamsCarried = streams
        settings.pageSize = try reader.integer(
            "LIVEGATE_DELIVERY_PAGE_SIZE", default: min(10_000, max(settings.pageSize, streams)), range: 1...10_000)
        settings.maximumPushesInFlight = try reader.integer(
            "LIVEGATE_DELIVERY_MAX_IN_FLIGHT", default: min(100_000, 2 * streams), range: 1...100_000)
        settings.concurrentDispatches = try reader.integer(
            "LIVEGATE_DELIVERY_CONCURRENT_DISPATCHES", default: settings.concurrentDispatches, range: 1...1_000)
        settings.lease = try reader.duration("LIVEGATE_DELIVERY_LEASE_SECONDS", default: 60, range: 2...3600, unit: .seconds(1))
        settings.pollInterval = try reader.duration(
            "LIVEGATE_DELIVERY_POLL_MILLISECONDS", default: 250, range: 10...60_000, unit: .milliseconds(1))
        settings.pushRetry.maximumAttempts = try reader.integer(
            "LIVEGATE_DELIVERY_MAX_ATTEMPTS", default: settings.pushRetry.maximumAttempts, range: 1...20)
        settings.maximumThrottleWait = try reader.duration(
            "LIVEGATE_DELIVERY_MAX_THROTTLE_WAIT_SECONDS", default: 30, range: 1...3600, unit: .seconds(1))
        return settings
    }
}
