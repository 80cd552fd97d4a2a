/// The request got no whole HTTP answer: connect failure, timeout, reset, TLS failure, an answer cut
/// off, or shutdown.
public struct HTTP2TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added, so switch over them with a default.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case connectFailed
            case timedOut
            case tlsFailed
            case connectionLost
            case lostAfterSending
            case answerCutOff
            case invalidRequest
            case shutDown
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        public static let connectFailed = Code(.connectFailed)
        public static let timedOut = Code(.timedOut)
        public static let tlsFailed = Code(.tlsFailed)
        /// The connection broke mid-request (reset, GOAWAY, protocol error).
        public static let connectionLost = Code(.connectionLost)
        /// The request went out on a connection that then failed before any of the answer came: the
        /// server may have acted on it (a push may have been delivered). libcurl would have sent it
        /// again by itself, on another connection; this client does not (`curlPrereqCallback`), so
        /// whether to send it again is the caller's decision, made knowingly.
        ///
        /// It also covers a request the server promised not to have processed (a stream above a
        /// GOAWAY's last stream id, or reset with REFUSED_STREAM): libcurl 7.88 retries both the same
        /// way and tells neither apart, so a caller cannot either.
        public static let lostAfterSending = Code(.lostAfterSending)
        /// The answer's status line and headers came (`partialAnswer`), then the stream or the
        /// connection broke before the answer's end: the server did act on the request, and said how.
        public static let answerCutOff = Code(.answerCutOff)
        public static let invalidRequest = Code(.invalidRequest)
        /// The client was shut down before the request finished.
        public static let shutDown = Code(.shutDown)

        public var description: String { base.rawValue }
    }

    public let code: Code
    /// libcurl's error text; never holds request headers (which carry the provider token).
    public let message: String
    /// For `answerCutOff`: the status and headers that came, and as much of the body.
    public let partialAnswer: HTTP2Response?

    public init(_ code: Code, _ message: String, partialAnswer: HTTP2Response? = nil) {
        self.code = code
        self.message = message
        self.partialAnswer = partialAnswer
    }

    public var description: String { "HTTP2TransportError(\(code.description)): \(message)" }
}
