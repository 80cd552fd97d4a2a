/// Settings of one HTTP/2 client (`threads` libcurl multi handles, each on a thread of its own).
public struct HTTP2ClientConfiguration: Sendable {
    /// For setting up each connection: resolving the host, TCP, and TLS.
    public var connectTimeout: Duration
    /// How long a connection with requests outstanding may answer none of them before it is taken for
    /// dead (`ConnectionWatch`): its requests then fail as `timedOut` and it is closed. A request that
    /// waits for a connection or a free stream is not timed, and a late answer on a connection that
    /// keeps answering others is waited for.
    public var responseTimeout: Duration
    /// Connections to one host, shared out over `threads`: a thread opens another of its connections
    /// only when the streams of its open ones are all in use.
    public var maximumConnectionsPerHost: Int
    /// The most streams used per connection; fewer when the server's SETTINGS_MAX_CONCURRENT_STREAMS
    /// says so, also when it lowers it mid-connection: libcurl 7.88 re-reads it from every SETTINGS frame
    /// and gives a new request a connection only while its streams in use are below it (else the request
    /// waits, `CURLOPT_PIPEWAIT`, for a stream to free up or another connection). APNs advertises 500 to
    /// 1,000, and may lower it at any time. 500 (2,000 pushes in flight over 4 connections) delivered
    /// 2.2 times as fast as 100 at a 50 ms round trip (bench/delivery `rtt`); 1,000 bought no more on 2
    /// cores, and would keep pushes a 500-stream server cannot take waiting inside libcurl.
    public var maximumStreamsPerConnection: Int
    /// libcurl threads (multi handles) the connections are spread over, each with its share: one thread
    /// carries about 20,000 requests a second (bench/delivery), more use more cores. At most one per
    /// connection.
    public var threads: Int
    /// Each thread's connections: `maximumConnectionsPerHost` shared out as evenly as it goes.
    public var connectionsPerLane: [Int] {
        let lanes = max(1, min(threads, maximumConnectionsPerHost))
        let connections = max(1, maximumConnectionsPerHost)
        return (0..<lanes).map { connections / lanes + ($0 < connections % lanes ? 1 : 0) }
    }
    /// Requests handed to libcurl at once: what the connections can carry. Beyond it requests wait in
    /// the client's own queue, which costs nothing per request, where libcurl's pending list costs more
    /// the longer it is.
    public var maximumTransfersInProgress: Int { maximumConnectionsPerHost * maximumStreamsPerConnection }
    /// A PEM bundle of certificate authorities to trust instead of the system's (private simulators, tests).
    public var trustedCAFile: String?
    /// The response headers to keep (lower-case names); nil keeps all. APNs needs one, and reading the
    /// others costs allocations on every push.
    public var responseHeaderNames: Set<String>? {
        didSet { keptResponseHeaders = Self.kept(responseHeaderNames) }
    }
    /// `responseHeaderNames` as the lanes' threads compare them, without allocating.
    private(set) var keptResponseHeaders: [KeptHeaderName]?

    public init(
        connectTimeout: Duration = .seconds(10), responseTimeout: Duration = .seconds(30),
        maximumConnectionsPerHost: Int = 4, maximumStreamsPerConnection: Int = 500, threads: Int = 1,
        trustedCAFile: String? = nil, responseHeaderNames: Set<String>? = nil
    ) {
        self.connectTimeout = connectTimeout
        self.responseTimeout = responseTimeout
        self.maximumConnectionsPerHost = maximumConnectionsPerHost
        self.maximumStreamsPerConnection = maximumStreamsPerConnection
        self.threads = threads
        self.trustedCAFile = trustedCAFile
        self.responseHeaderNames = responseHeaderNames
        self.keptResponseHeaders = Self.kept(responseHeaderNames)
    }

    private static func kept(_ names: Set<String>?) -> [KeptHeaderName]? {
        names.map { $0.map(KeptHeaderName.init) }
    }
}
