// Stand-in for Apple's ActivityKit, for LiveGateKit's tests on Linux. Mirrors the documented cases:
// https://developer.apple.com/documentation/activitykit/activitystate

/// Apple's `ActivityState`: where a Live Activity is in its life cycle. Stand-in: the same cases.
@available(iOS 16.1, *)
public enum ActivityState: Equatable, Hashable, Codable, Sendable {
    /// Visible and updatable.
    case active
    /// Ended by a person, the app or the system; still visible, no more updates.
    case ended
    /// Ended and no longer visible.
    case dismissed
    /// Past its `staleDate`: its content is out of date.
    @available(iOS 16.2, *)
    case stale
    /// Scheduled to start at a date that has not come yet.
    @available(iOS 26.0, *)
    case pending
}
