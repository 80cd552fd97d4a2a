/// An error from the PostgreSQL client.
///
/// The description carries the server's primary message and SQLSTATE, never the connection string
/// or the statement's parameters, so it is safe to log.
public struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is, as an open set of values.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case connectionFailed
            case connectionLost
            case statementFailed
            case decodingFailed
            case poolClosed
            case timedOut
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// A connection could not be opened.
        public static let connectionFailed = Code(.connectionFailed)
        /// An open connection broke while a statement was sent or its result read.
        public static let connectionLost = Code(.connectionLost)
        /// The server refused the statement; `sqlState` says why.
        public static let statementFailed = Code(.statementFailed)
        /// A column could not be read as the type asked for.
        public static let decodingFailed = Code(.decodingFailed)
        /// The pool was shut down.
        public static let poolClosed = Code(.poolClosed)
        /// PostgreSQL did not answer within the call's deadline, or no connection was free by then. A
        /// statement that was sent may or may not have taken effect.
        public static let timedOut = Code(.timedOut)

        public var description: String { base.rawValue }
    }

    public var code: Code
    /// The five-character SQLSTATE the server sent, when it sent one.
    public var sqlState: String?
    /// A message for a person: the server's primary message, or the client's own.
    public var message: String

    public init(code: Code, sqlState: String? = nil, message: String) {
        self.code = code
        self.sqlState = sqlState
        self.message = message
    }

    public var description: String {
        var text = "PostgresError(code: \(code)"
        if let sqlState { text += ", sqlState: \(sqlState)" }
        return text + ", message: \(message))"
    }

    /// True when the statement broke a unique constraint (SQLSTATE 23505).
    public var isUniqueViolation: Bool { sqlState == "23505" }

    /// SQLSTATE 25006: a write on a server that is read-only, as a primary is once a failover demoted it.
    static let readOnlySQLState = "25006"

    /// True when PostgreSQL could not be reached rather than refusing the statement: no connection could
    /// be opened (refused, timed out, the server starting up), an open one broke or missed its deadline,
    /// the server is shutting down (57P01 admin, 57P02 crash, 57P03 cannot connect now), the connection
    /// failed (class 08), or the server is no longer the primary (25006 read-only). Asking again later may
    /// succeed; asking again with the same statement at once will not help.
    public var isDatabaseUnavailable: Bool {
        if code == .connectionFailed || code == .connectionLost || code == .timedOut { return true }
        guard let sqlState else { return false }
        return sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03", Self.readOnlySQLState].contains(sqlState)
    }
}
