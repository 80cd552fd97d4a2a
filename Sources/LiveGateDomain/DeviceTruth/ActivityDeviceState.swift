/// An activity's state on one device, as ActivityKit's `ActivityState` names it and the app reports it.
package enum ActivityDeviceState: String, Sendable, CaseIterable {
    case active
    /// Still shown, past its stale date.
    case stale
    case ended
    case dismissed

    /// The activity is off the device: its update token for the activity gets no more pushes.
    package var isOver: Bool { self == .ended || self == .dismissed }

    /// Shown on the device: a start it came from is confirmed.
    package var isShown: Bool { !isOver }
}
