/// One request for the HTTP/2 transport: APNs pushes are `POST /3/device/<token>` with a JSON body.
public struct HTTP2Request: Sendable {
    public var url: String
    public var method: String
    /// Lower-case names, as HTTP/2 sends them.
    public var headers: [(name: String, value: String)]
    /// Lines sent after `headers`, shared with other requests.
    public var sharedHeaders: SharedHeaderLines?
    public var body: [UInt8]

    public init(
        url: String, method: String = "POST", headers: [(name: String, value: String)] = [],
        sharedHeaders: SharedHeaderLines? = nil, body: [UInt8] = []
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.sharedHeaders = sharedHeaders
        self.body = body
    }
}

/// What came back: the status, the response headers (names lower-cased) and the body.
public struct HTTP2Response: Sendable, Equatable {
    public var status: Int
    public var headers: HTTP2Headers
    public var body: [UInt8]
    /// True when the request went over a connection that was already open.
    public var reusedConnection: Bool
    /// From the request going out (the connection open, a stream granted) to the answer's last byte.
    public var answerTime: Duration = .zero

    public init(
        status: Int, headers: HTTP2Headers = [:], body: [UInt8] = [], reusedConnection: Bool = false,
        answerTime: Duration = .zero
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.reusedConnection = reusedConnection
        self.answerTime = answerTime
    }
}
