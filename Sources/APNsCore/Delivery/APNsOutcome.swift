/// What one APNs answer means for the gateway (SPEC §7's table).
public enum APNsOutcome: Sendable, Equatable {
    /// 200: accepted by APNs.
    case delivered(apnsID: String?)
    /// 410, or 400 `BadDeviceToken`: the token is dead; remove it. `timestamp` (ms) comes with 410.
    case removeToken(status: Int, reason: APNsReason, timestamp: Int64?)
    /// 403 provider-token errors: renew the JWT once and retry; if that fails, "Invalid push credential".
    case providerTokenRejected(reason: APNsReason)
    /// 429 and 5xx: try again later, with backoff.
    case retryLater(status: Int, reason: APNsReason?)
    /// Any other answer (400s, 413): retrying cannot help; log it.
    case rejected(status: Int, reason: APNsReason?)

    /// Classifies an answer from its status and JSON body (`{"reason": ..., "timestamp": ...}`).
    public static func classify(status: Int, body: [UInt8], apnsID: String?) -> APNsOutcome {
        if status == 200 { return .delivered(apnsID: apnsID) }
        let parsed = try? JSONValue.parse(body)
        let reason = parsed?["reason"]?.stringValue.map(APNsReason.init(rawValue:))
        let timestamp = parsed?["timestamp"]?.numberLexeme.flatMap { Int64($0) }
        switch (status, reason) {
        case (410, _):
            return .removeToken(status: status, reason: reason ?? .unregistered, timestamp: timestamp)
        case (400, .badDeviceToken?):
            return .removeToken(status: status, reason: .badDeviceToken, timestamp: nil)
        case (403, .invalidProviderToken?), (403, .expiredProviderToken?), (403, .missingProviderToken?):
            return .providerTokenRejected(reason: reason!)
        case (429, _), (500...599, _):
            return .retryLater(status: status, reason: reason)
        default:
            return .rejected(status: status, reason: reason)
        }
    }
}
