import APNsClient
import APNsCore
import LiveGateDomain
import UUIDText

extension DeliveryLogEntries {
    /// The entry for a device APNs throttled (429 `TooManyRequests`): written once per activity and
    /// clock hour, for the first such device, however many 429s follow.
    static func throttled(
        _ throttling: Throttling, target: FanoutTarget, push: LiveActivityPush, dispatch: Dispatch
    )
        -> ActivityLogEntry
    {
        let token = String(target.token.hex.suffix(8))
        let wait = throttling.longestWait.map { " for \(Self.describe($0))" } ?? ""
        return ActivityLogEntry(
            type: .other,
            message:
                "APNs throttled the device …\(token) (429 TooManyRequests): APNs answers this when one device gets too "
                + "many pushes. LiveGate backed off that device alone\(wait) and sent to it again; its other devices "
                + "went on at once. Logged once per activity and hour; every 429 is counted.",
            activityID: dispatch.activityID, dispatchID: dispatch.id, externalID: target.externalID ?? dispatch.externalID,
            maskedToken: token, apnsStatus: 429, apnsReason: APNsReason.tooManyRequests.rawValue, apnsID: push.apnsID.lowercasedText)
    }

    /// A push given up while APNs throttled its device: its tries ran out, or its device's backoff would
    /// outlast what it may wait (before its first try, when an earlier push's 429 set that backoff).
    static func throttledGivenUp(attempts: Int) -> String {
        guard attempts > 0 else {
            return "The push was not sent: APNs is throttling this device (429 TooManyRequests) for longer than the push "
                + "may wait (LIVEGATE_DELIVERY_MAX_THROTTLE_WAIT_SECONDS, or its apns-expiration)."
        }
        return "APNs did not accept the push after \(attempts) tr\(attempts == 1 ? "y" : "ies") (last: 429 TooManyRequests, "
            + "APNs throttling this device); it was given up: its tries ran out, or the device's backoff would outlast "
            + "what the push may wait."
    }

    /// `1.5 s`, `40 s`, `3 min`: a wait as a person reads it.
    static func describe(_ wait: Duration) -> String {
        let milliseconds = wait / .milliseconds(1)
        if milliseconds < 10_000 { return "\((milliseconds / 100).rounded() / 10) s" }
        if milliseconds < 120_000 { return "\(Int((milliseconds / 1000).rounded())) s" }
        return "\(Int((milliseconds / 60_000).rounded())) min"
    }
}
