/// How to reach PostgreSQL and how many connections to keep.
public struct PostgresConfiguration: Sendable {
    /// A libpq connection string: `host=... dbname=...` or a `postgres://` URI.
    /// It may hold a password, so it is never logged or put in an error.
    public var connectionString: String
    /// The most connections the pool opens; each runs its blocking calls on its own thread.
    public var maximumConnections: Int
    /// Seconds libpq waits for a connection to open (used unless the connection string sets its own).
    public var connectTimeoutSeconds: Int
    /// How long one call of the pool may take - waiting for a free connection and every statement it
    /// runs - before the client gives up on it and on its connection; nil: no limit. The client enforces
    /// it itself: a server that hung never answers, and its kernel keeps the connection looking alive.
    public var callTimeout: Duration?
    /// Shown in `pg_stat_activity`.
    public var applicationName: String
    /// More libpq connection keywords (`keepalives_idle`, `tcp_user_timeout`…); like the two above, the
    /// connection string's own settings win over them.
    public var parameters: [String: String]

    /// What every connection sets unless told otherwise: TCP keepalives (5 s idle, 1 s between probes,
    /// 3 probes) and a 10 s limit on unacknowledged writes. A statement waiting on a host that vanished
    /// (power cut, network partition) fails in about 8 s instead of when the system's defaults give up
    /// (two hours for an idle socket): commits queue behind one statement, so that wait is everyone's.
    public static let deadPeerDetection = [
        "keepalives": "1", "keepalives_idle": "5", "keepalives_interval": "1", "keepalives_count": "3",
        "tcp_user_timeout": "10000",
    ]

    public init(
        connectionString: String,
        maximumConnections: Int = 10,
        connectTimeoutSeconds: Int = 5,
        callTimeout: Duration? = .seconds(10),
        applicationName: String = "livegate",
        parameters: [String: String] = PostgresConfiguration.deadPeerDetection
    ) {
        precondition(maximumConnections > 0, "a pool needs at least one connection")
        self.connectionString = connectionString
        self.maximumConnections = maximumConnections
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.callTimeout = callTimeout
        self.applicationName = applicationName
        self.parameters = parameters
    }
}
