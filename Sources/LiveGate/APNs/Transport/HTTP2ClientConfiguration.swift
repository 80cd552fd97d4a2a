/// Settings of one HTTP/2 client (one libcurl multi handle and its thread).
public struct HTTP2ClientConfiguration: Sendable {
    public var connectTimeoutMilliseconds: Int
    /// For the whole request, from submission to the last byte of the answer.
    public var responseTimeoutMilliseconds: Int
    /// More connections to one host open only when the streams of the open ones are all in use.
    public var maximumConnectionsPerHost: Int
    /// libcurl's own cap per connection (its default is 100); the server's SETTINGS_MAX_CONCURRENT_STREAMS
    /// still applies. APNs advertises about 500.
    public var maximumStreamsPerConnection: Int
    /// A PEM bundle of certificate authorities to trust instead of the system's (private simulators, tests).
    public var trustedCAFile: String?

    public init(
        connectTimeoutMilliseconds: Int = 10_000, responseTimeoutMilliseconds: Int = 30_000,
        maximumConnectionsPerHost: Int = 4, maximumStreamsPerConnection: Int = 1_000, trustedCAFile: String? = nil
    ) {
        self.connectTimeoutMilliseconds = connectTimeoutMilliseconds
        self.responseTimeoutMilliseconds = responseTimeoutMilliseconds
        self.maximumConnectionsPerHost = maximumConnectionsPerHost
        self.maximumStreamsPerConnection = maximumStreamsPerConnection
        self.trustedCAFile = trustedCAFile
    }
}
