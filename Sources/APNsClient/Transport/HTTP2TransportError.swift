/// The request got no HTTP answer: connect failure, timeout, reset, TLS failure, or shutdown.
public struct HTTP2TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: RawRepresentable, Sendable, Hashable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let connectFailed = Code(rawValue: "connectFailed")
        public static let timedOut = Code(rawValue: "timedOut")
        public static let tlsFailed = Code(rawValue: "tlsFailed")
        /// The connection broke mid-request (reset, GOAWAY, protocol error).
        public static let connectionLost = Code(rawValue: "connectionLost")
        /// The request went out on a connection that then failed before any of the answer came: the
        /// server may have acted on it (a push may have been delivered). libcurl would have sent it
        /// again by itself, on another connection; this client does not (`curlPrereqCallback`), so
        /// whether to send it again is the caller's decision, made knowingly.
        public static let lostAfterSending = Code(rawValue: "lostAfterSending")
        public static let invalidRequest = Code(rawValue: "invalidRequest")
        /// The client was shut down before the request finished.
        public static let shutDown = Code(rawValue: "shutDown")
    }

    public let code: Code
    /// libcurl's error text; never holds request headers (which carry the provider token).
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "HTTP2TransportError(\(code.rawValue)): \(message)" }
}
