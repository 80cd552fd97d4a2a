// Stand-in for Apple's ActivityKit, for LiveGateKit's tests on Linux. Mirrors the documented signatures:
// https://developer.apple.com/documentation/activitykit/activity
// https://developer.apple.com/documentation/activitykit/activity/id
// https://developer.apple.com/documentation/activitykit/activity/attributes
// https://developer.apple.com/documentation/activitykit/activity/content
// https://developer.apple.com/documentation/activitykit/activity/activitystate
// https://developer.apple.com/documentation/activitykit/activity/pushtoken
// https://developer.apple.com/documentation/activitykit/activity/activities
// https://developer.apple.com/documentation/activitykit/activity/pushtostarttoken
// https://developer.apple.com/documentation/activitykit/activity/request(attributes:content:pushtype:)

import Foundation

/// Apple's `Activity`: one Live Activity, and (statically) the app's activities of one attributes type.
/// Stand-in: an object the tests drive through `StandInControls.swift`; thread-safe, so Swift 6 code may
/// share it (`@unchecked Sendable`, guarded by a lock).
@available(iOS 16.1, *)
public final class Activity<Attributes: ActivityAttributes>: Identifiable, @unchecked Sendable {
    /// Apple's `Activity.ContentState`.
    public typealias ContentState = Attributes.ContentState

    /// Apple's `Activity.id`: a unique identifier of the activity.
    public let id: String
    /// Apple's `Activity.attributes`.
    public let attributes: Attributes

    let lock = NSLock()
    var currentContent: ActivityContent<ContentState>
    var currentState: ActivityState
    /// The update tokens iOS issues; the latest is `pushToken`.
    let pushTokens = Broadcaster<Data>(replaysLatest: true)
    /// The state changes after the start.
    let stateChanges = Broadcaster<ActivityState>(replaysLatest: false)

    init(attributes: Attributes, content: ActivityContent<ContentState>) {
        self.id = UUID().uuidString
        self.attributes = attributes
        self.currentContent = content
        self.currentState = .active
    }

    /// Apple's `Activity.content`: the activity's current dynamic content.
    @available(iOS 16.2, *)
    public var content: ActivityContent<Activity<Attributes>.ContentState> {
        lock.lock()
        defer { lock.unlock() }
        return currentContent
    }

    /// Apple's `Activity.activityState`.
    public var activityState: ActivityState {
        lock.lock()
        defer { lock.unlock() }
        return currentState
    }

    /// Apple's `Activity.pushToken`: the token for ActivityKit pushes to this activity, once issued.
    public var pushToken: Data? {
        pushTokens.latest
    }

    /// Apple's `Activity.activities`: the app's running activities of this type (ended and dismissed
    /// ones leave the list).
    public static var activities: [Activity<Attributes>] {
        record.activities
    }

    /// Apple's `Activity.pushToStartToken`: the token for starting an activity of this type by push.
    @available(iOS 17.2, *)
    public static var pushToStartToken: Data? {
        record.pushToStartTokens.latest
    }

    /// Apple's `request(attributes:content:pushType:)`: starts an activity. Stand-in: never throws; the
    /// activity is `active`, listed in `activities` and announced on `activityUpdates`.
    @available(iOS 16.2, *)
    public static func request(
        attributes: Attributes, content: ActivityContent<Activity<Attributes>.ContentState>, pushType: PushType? = nil
    ) throws -> Activity<Attributes> {
        let activity = Activity(attributes: attributes, content: content)
        record.noteRequest(pushType: pushType)
        record.add(activity)
        return activity
    }

    /// This type's record on the stand-in "device".
    static var record: StandInTypeRecord<Attributes> {
        StandInRegistry.shared.record(for: Attributes.self)
    }

    /// Ends the activity's own sequences (it ended, or the tests reset the device).
    func finishSequences() {
        stateChanges.finish()
        pushTokens.finish()
    }
}
