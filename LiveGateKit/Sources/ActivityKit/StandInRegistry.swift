// Not part of Apple's ActivityKit: where the stand-in keeps what iOS keeps per ActivityAttributes type.
// (A generic class cannot have static stored properties, so `Activity<Attributes>` finds its type's
// record here, keyed by the type.)

import Foundation

/// What the "device" holds for one ActivityAttributes type: its running activities, the sequence of
/// activities that start, its push-to-start token, and the push type of the last request.
final class StandInTypeRecord<Attributes: ActivityAttributes>: @unchecked Sendable {
    private let lock = NSLock()
    private var running: [Activity<Attributes>] = []
    private var lastPushType: PushType?
    let activityUpdates = Broadcaster<Activity<Attributes>>(replaysLatest: false)
    let pushToStartTokens = Broadcaster<Data>(replaysLatest: true)

    var activities: [Activity<Attributes>] {
        lock.lock()
        defer { lock.unlock() }
        return running
    }

    var lastRequestedPushType: PushType? {
        lock.lock()
        defer { lock.unlock() }
        return lastPushType
    }

    /// The app requested an activity with this push type (nil: updated by the app only).
    func noteRequest(pushType: PushType?) {
        lock.lock()
        defer { lock.unlock() }
        lastPushType = pushType
    }

    /// An activity started (by the app's request or by the system): listed and announced.
    func add(_ activity: Activity<Attributes>) {
        lock.lock()
        defer { lock.unlock() }
        running.append(activity)
        activityUpdates.yield(activity)
    }

    /// An activity ended or was dismissed: no longer listed.
    func remove(_ activity: Activity<Attributes>) {
        lock.lock()
        defer { lock.unlock() }
        running.removeAll { $0 === activity }
    }

    /// Forgets every activity (their sequences end), the push-to-start token and the last push type.
    func reset() {
        lock.lock()
        defer { lock.unlock() }
        let all = running
        running.removeAll()
        lastPushType = nil
        for activity in all {
            activity.finishSequences()
        }
        activityUpdates.reset()
        pushToStartTokens.reset()
    }
}

/// Every ActivityAttributes type's record, made on first use.
final class StandInRegistry: @unchecked Sendable {
    static let shared = StandInRegistry()

    private let lock = NSLock()
    private var records: [ObjectIdentifier: AnyObject] = [:]

    func record<Attributes: ActivityAttributes>(for type: Attributes.Type) -> StandInTypeRecord<Attributes> {
        lock.lock()
        defer { lock.unlock() }
        let key = ObjectIdentifier(type)
        if let existing = records[key] as? StandInTypeRecord<Attributes> {
            return existing
        }
        let created = StandInTypeRecord<Attributes>()
        records[key] = created
        return created
    }
}
