/// How to reach PostgreSQL and how many connections to keep.
public struct PostgresConfiguration: Sendable {
    /// A libpq connection string: `host=... dbname=...` or a `postgres://` URI.
    /// It may hold a password, so it is never logged or put in an error.
    public var connectionString: String
    /// The most connections the pool opens; each runs its blocking calls on its own thread.
    public var maximumConnections: Int
    /// Seconds libpq waits for a connection to open (used unless the connection string sets its own).
    public var connectTimeoutSeconds: Int
    /// Shown in `pg_stat_activity`.
    public var applicationName: String
    /// More libpq connection keywords (`keepalives_idle`, `tcp_user_timeout`…); like the two above, the
    /// connection string's own settings win over them.
    public var parameters: [String: String]

    public init(
        connectionString: String,
        maximumConnections: Int = 10,
        connectTimeoutSeconds: Int = 5,
        applicationName: String = "livegate",
        parameters: [String: String] = [:]
    ) {
        precondition(maximumConnections > 0, "a pool needs at least one connection")
        self.connectionString = connectionString
        self.maximumConnections = maximumConnections
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.applicationName = applicationName
        self.parameters = parameters
    }
}
