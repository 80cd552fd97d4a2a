/// The `event` of a Live Activity push: what the device does with the activity.
public struct LiveActivityEvent: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    /// Only the events APNs knows; anything else (say, a stored value from elsewhere) is nil.
    public init?(rawValue: String) {
        guard rawValue == "start" || rawValue == "update" || rawValue == "end" else { return nil }
        self.rawValue = rawValue
    }

    private init(uncheckedValue: String) {
        self.rawValue = uncheckedValue
    }

    /// Starts a new activity on the device (push-to-start, iOS 17.2+).
    public static let start = LiveActivityEvent(uncheckedValue: "start")
    /// Replaces a running activity's content state.
    public static let update = LiveActivityEvent(uncheckedValue: "update")
    /// Ends the activity; it stays on the Lock Screen until its dismissal date.
    public static let end = LiveActivityEvent(uncheckedValue: "end")

    public var description: String { rawValue }
}
