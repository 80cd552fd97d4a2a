import Logging

/// Settings of a running gateway; `livegate serve` reads them from flags and the environment.
public struct GatewayConfiguration: Sendable {
    public static let defaultMaxRequestBodyBytes = 1024 * 1024

    public var host: String
    public var port: Int
    /// Bodies above this many bytes get 413.
    public var maxRequestBodyBytes: Int
    /// Proxies whose `X-Forwarded-For` is believed (empty: the TCP peer is the client).
    public var trustedProxies: [IPNetwork]
    public var serverName: String

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        maxRequestBodyBytes: Int = defaultMaxRequestBodyBytes,
        trustedProxies: [IPNetwork] = [],
        serverName: String = "livegate"
    ) {
        self.host = host
        self.port = port
        self.maxRequestBodyBytes = maxRequestBodyBytes
        self.trustedProxies = trustedProxies
        self.serverName = serverName
    }
}
