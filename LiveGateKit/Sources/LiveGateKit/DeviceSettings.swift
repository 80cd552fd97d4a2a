import Foundation

/// What the SDK knows of the device beside its activities: whether the person allows frequent updates
/// (sent with every state report), and the last state reported of each activity not over yet, reported
/// again when that setting changes so the gateway learns it for every activity on the device.
@available(iOS 16.0, macOS 13.0, *)
final class DeviceSettings: @unchecked Sendable {
    struct LastState {
        var state: LiveActivityState
        var channelID: String?
    }

    private let lock = NSLock()
    private var frequent: Bool?
    private var lastStates: [String: LastState] = [:]
    private var watching = false

    var frequentPushesEnabled: Bool? {
        lock.lock()
        defer { lock.unlock() }
        return frequent
    }

    /// Sets the value; true when it is not the one states were reported with (the first value known is a
    /// change for the activities reported before it).
    func setFrequentPushesEnabled(_ enabled: Bool) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let changed = frequent != enabled
        frequent = enabled
        return changed
    }

    func noteState(_ state: LiveActivityState, tag: String, channelID: String?) {
        lock.lock()
        defer { lock.unlock() }
        lastStates[tag] = state.isOver ? nil : LastState(state: state, channelID: channelID)
    }

    var activitiesNotOver: [(tag: String, last: LastState)] {
        lock.lock()
        defer { lock.unlock() }
        return lastStates.map { ($0.key, $0.value) }
    }

    /// True the first time only: one task watches the setting for the whole SDK.
    func startWatching() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        defer { watching = true }
        return !watching
    }
}
