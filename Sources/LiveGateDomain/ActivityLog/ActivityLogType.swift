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

    package static let all: [ActivityLogType] = [.noPushCredential, .invalidPushCredential, .feedbackRemovedToken, .other]
}
