/// An activity's state on the device, as the SDK reports it to `POST /live_activity/device_state`:
/// ActivityKit's `ActivityState`, without a dependency on ActivityKit.
@available(iOS 16.0, macOS 13.0, *)
public enum LiveActivityState: String, Sendable, Codable, CaseIterable {
    case active
    case stale
    case ended
    case dismissed

    /// The activity is off the device: nothing more is reported for it.
    public var isOver: Bool { self == .ended || self == .dismissed }
}
