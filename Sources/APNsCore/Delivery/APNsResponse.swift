/// What APNs answered to one request: the status, the `apns-id` or `apns-request-id` it echoed, the
/// wait a `retry-after` header asked for, and for an error the body's `reason` and, with 410, its
/// `timestamp`. What an answer means for delivery is decided by
/// the gateway, in one place; this only says what came back.
public struct APNsResponse: Sendable, Equatable {
    public var status: Int
    public var apnsID: String?
    /// `apns-request-id`: what channel management and broadcast answers echo (or APNs made up).
    public var requestID: String?
    public var reason: APNsReason?
    /// Milliseconds since 1970 from which APNs holds the device token invalid (410 only).
    public var timestamp: Int64?
    /// How long `retry-after` asked to wait before trying again (a 429 may carry it), counted from when
    /// the answer was read.
    public var retryAfter: Duration?

    public init(
        status: Int, apnsID: String? = nil, requestID: String? = nil, reason: APNsReason? = nil, timestamp: Int64? = nil,
        retryAfter: Duration? = nil
    ) {
        self.status = status
        self.apnsID = apnsID
        self.requestID = requestID
        self.reason = reason
        self.timestamp = timestamp
        self.retryAfter = retryAfter
    }

    /// Reads an answer's error body, `{"reason": ..., "timestamp": ...}` (a 2xx has none), and its
    /// `retry-after` header's text, as seconds or an HTTP date counted from `now` (seconds since 1970).
    public init(
        status: Int, body: [UInt8], apnsID: String?, requestID: String? = nil, retryAfter: String? = nil, now: Double = 0
    ) {
        var reason: APNsReason?
        var timestamp: Int64?
        if !(200..<300).contains(status), let parsed = try? JSONValue.parse(body) {
            reason = parsed["reason"]?.stringValue.map(APNsReason.init(rawValue:))
            timestamp = parsed["timestamp"]?.numberLexeme.flatMap { Int64($0) }
        }
        // Built once with every field, not built and then changed: nearly every answer is a 200, read
        // once per push.
        self.init(
            status: status, apnsID: apnsID, requestID: requestID, reason: reason, timestamp: timestamp,
            retryAfter: retryAfter.flatMap { RetryAfter.wait($0, now: now) })
    }

    /// 403 for the provider token (expired, invalid or missing): a freshly signed one may be accepted.
    public var rejectsProviderToken: Bool {
        guard status == 403, let reason else { return false }
        return reason == .invalidProviderToken || reason == .expiredProviderToken || reason == .missingProviderToken
    }
}
