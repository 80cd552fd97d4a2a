/// The kind of a message activity log entry, with Braze's names. Open-ended, like APNs reasons.
public struct ActivityLogType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// The app has no APNs signing key: nothing could be sent.
    public static let noPushCredential = ActivityLogType(rawValue: "Live Activity error (No push credential)")
    /// APNs refused the provider token even after a renewal, or the key cannot sign.
    public static let invalidPushCredential = ActivityLogType(rawValue: "Live Activity error (Invalid push credential)")
    /// APNs said the token is dead (410, or 400 BadDeviceToken); the token was removed.
    public static let feedbackRemovedToken = ActivityLogType(rawValue: "APNS Feedback Removed Token errors")
    /// Everything else a person should see: refused pushes, retries given up, no device registered.
    public static let other = ActivityLogType(rawValue: "Other Live Activity errors")

    public static let all: [ActivityLogType] = [.noPushCredential, .invalidPushCredential, .feedbackRemovedToken, .other]
}
