import LiveGateDomain
import Logging

/// Settings of a running gateway; `livegate serve` reads them from flags and the environment.
package struct GatewayConfiguration: Sendable {
    package static let defaultMaxRequestBodyBytes = 1024 * 1024

    package var host: String
    package var port: Int
    /// Bodies above this many bytes get 413.
    package var maxRequestBodyBytes: Int
    /// Proxies whose `X-Forwarded-For` is believed (empty: the TCP peer is the client).
    package var trustedProxies: [IPNetwork]
    package var serverName: String
    /// How long API keys and apps are kept in memory: a revoked key or a changed app is seen within this.
    package var lookupCacheTimeToLive: Duration
    /// Per-workspace hourly limits on the message endpoints (off only to measure what they cost).
    package var rateLimiting: Bool
    package var channelLimits: ChannelLimits
    /// How long an ended activity's broadcast channel lives on (late devices still hear the end) before
    /// housekeeping deletes it at APNs.
    package var channelRetention: Duration
    /// Where `GET /metrics` is served; nil: nowhere.
    package var metrics: MetricsExposure?
    /// Calls per minute to `/push_token_tag` from one address and per app (0: no limit).
    package var tokenTagLimits: TokenTagLimits.Settings
    /// Webhook URLs may be `http://` to any host, not only to loopback ones (a private network's receiver).
    package var webhookAllowsHTTP = false

    package init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        maxRequestBodyBytes: Int = defaultMaxRequestBodyBytes,
        trustedProxies: [IPNetwork] = [],
        serverName: String = "livegate",
        lookupCacheTimeToLive: Duration = .seconds(5),
        rateLimiting: Bool = true,
        channelLimits: ChannelLimits = .init(),
        channelRetention: Duration = .seconds(3600),
        metrics: MetricsExposure? = nil,
        tokenTagLimits: TokenTagLimits.Settings = .init()
    ) {
        self.host = host
        self.port = port
        self.maxRequestBodyBytes = maxRequestBodyBytes
        self.trustedProxies = trustedProxies
        self.serverName = serverName
        self.lookupCacheTimeToLive = lookupCacheTimeToLive
        self.rateLimiting = rateLimiting
        self.channelLimits = channelLimits
        self.channelRetention = channelRetention
        self.metrics = metrics
        self.tokenTagLimits = tokenTagLimits
    }
}
