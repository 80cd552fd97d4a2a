/// The kind of a message activity log entry, with Braze's names. Open-ended, like APNs reasons.
package struct ActivityLogType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }
    package var description: String { rawValue }

    /// The app has no APNs signing key: nothing could be sent.
    package static let noPushCredential = ActivityLogType(rawValue: "Live Activity error (No push credential)")
    /// APNs refused the provider token even after a renewal, or the key cannot sign.
    package static let invalidPushCredential = ActivityLogType(rawValue: "Live Activity error (Invalid push credential)")
    /// APNs said the token is dead (410, or 400 BadDeviceToken); the token was removed.
    package static let feedbackRemovedToken = ActivityLogType(rawValue: "APNS Feedback Removed Token errors")
    /// Everything else a person should see: refused pushes, retries given up, no device registered.
    package static let other = ActivityLogType(rawValue: "Other Live Activity errors")
    /// A `content_state` (or start's attributes) the activity's registered type would not decode,
    /// accepted because the type is in warn mode: the phone shows nothing for it. LiveGate's own type.
    package static let contentStateMismatch = ActivityLogType(rawValue: "Live Activity content-state mismatch")

    /// The app's priority budget lowered an activity's updates to priority 5: one entry per activity
    /// and clock hour, at the first. LiveGate's own type.
    package static let priorityLowered = ActivityLogType(rawValue: "Live Activity priority lowered")

    /// A webhook endpoint failed for the whole retry period and was paused: nothing is sent to it until
    /// it is resumed. LiveGate's own type; its entry's `details` name the endpoint.
    package static let webhookPaused = ActivityLogType(rawValue: "Webhook endpoint paused")

    /// A paused webhook endpoint was resumed (`POST /webhooks/{id}/resume`). LiveGate's own type.
    package static let webhookResumed = ActivityLogType(rawValue: "Webhook endpoint resumed")

    package static let all: [ActivityLogType] = [
        .noPushCredential, .invalidPushCredential, .feedbackRemovedToken, .other, .contentStateMismatch, .priorityLowered,
        .webhookPaused, .webhookResumed,
    ]
}
