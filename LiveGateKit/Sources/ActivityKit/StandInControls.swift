// Not part of Apple's ActivityKit: the controls with which tests play the device (what iOS would do).
// Every name starts with `standIn`, so no test can mistake one for ActivityKit's API.
//
// The device's state is global per ActivityAttributes type, as on iOS: tests that run in parallel
// should each use their own attributes type, or call `standInReset()` in serialized tests.

import Foundation

@available(iOS 16.1, *)
extension Activity {
    /// iOS issued (or rotated) this activity's update token: `pushToken` becomes it, and every
    /// `pushTokenUpdates` iterator gets it. Ignored once the activity ended.
    public func standInSetPushToken(_ token: Data) {
        pushTokens.yield(token)
    }

    /// The activity's state changed on the device: every `activityStateUpdates` iterator gets it (a state
    /// equal to the current one is no change, and is not yielded). `ended` and `dismissed` also take it
    /// out of `activities` and end its sequences.
    public func standInSetState(_ state: ActivityState) {
        lock.lock()
        defer { lock.unlock() }
        guard state != currentState else { return }
        currentState = state
        stateChanges.yield(state)
        if state == .ended || state == .dismissed {
            Self.record.remove(self)
            finishSequences()
        }
    }

    /// What iOS does on a push-to-start: an `active` activity of this type appears, is listed in
    /// `activities` and announced on `activityUpdates`. Its update token comes later, through
    /// `standInSetPushToken(_:)`.
    @available(iOS 17.2, *)
    public static func standInSystemStart(
        attributes: Attributes, content: ActivityContent<Activity<Attributes>.ContentState>
    ) -> Activity<Attributes> {
        let activity = Activity(attributes: attributes, content: content)
        record.add(activity)
        return activity
    }

    /// iOS issued (or rotated) this type's push-to-start token: `pushToStartToken` becomes it, and every
    /// `pushToStartTokenUpdates` iterator gets it.
    @available(iOS 17.2, *)
    public static func standInSetPushToStartToken(_ token: Data) {
        record.pushToStartTokens.yield(token)
    }

    /// The `pushType` of this type's last `request(attributes:content:pushType:)`, nil before any (or
    /// when it passed nil).
    public static var standInLastRequestedPushType: PushType? {
        record.lastRequestedPushType
    }

    /// A fresh device for this type: every activity leaves `activities` (their sequences end, as do the
    /// current iterators of `activityUpdates` and `pushToStartTokenUpdates`), and the push-to-start token
    /// and the last requested push type are forgotten.
    public static func standInReset() {
        record.reset()
    }
}

@available(iOS 16.1, *)
extension PushType: Equatable {
    /// The channel id of `.channel(_:)`, nil for `.token`.
    public var standInChannelID: String? {
        if case .channel(let id) = kind { return id }
        return nil
    }

    public static func == (lhs: PushType, rhs: PushType) -> Bool {
        lhs.kind == rhs.kind
    }
}

@available(iOS 16.1, *)
extension ActivityAuthorizationInfo {
    /// The person turned "More Frequent Updates" on or off in Settings: `frequentPushesEnabled` becomes
    /// it, and every `frequentPushEnablementUpdates` iterator gets it (a value equal to the current one
    /// is no change, and is not yielded).
    public static func standInSetFrequentPushesEnabled(_ enabled: Bool) {
        frequentPushes.set(enabled)
    }
}
