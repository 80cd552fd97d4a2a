// Stand-in for Apple's ActivityKit, for LiveGateKit's tests on Linux. Mirrors the documented signatures:
// https://developer.apple.com/documentation/activitykit/activity/pushtokenupdates-swift.property
// https://developer.apple.com/documentation/activitykit/activity/pushtokenupdates-swift.struct/iterator
// https://developer.apple.com/documentation/activitykit/activity/activitystateupdates-swift.property
// https://developer.apple.com/documentation/activitykit/activity/activitystateupdates-swift.struct/iterator
// https://developer.apple.com/documentation/activitykit/activity/activityupdates-swift.type.property
// https://developer.apple.com/documentation/activitykit/activity/activityupdates-swift.struct
// https://developer.apple.com/documentation/activitykit/activity/pushtostarttokenupdates
//
// Each iterator made is a consumer of its own, so several may read one sequence at once. As in Apple's
// documentation, the sequences conform to AsyncSequence only, not to Sendable: code that compiles against
// the stand-in treats them as it must on iOS.

import Foundation

@available(iOS 16.1, *)
extension Activity {
    /// Apple's `Activity.pushTokenUpdates`: the activity's update tokens. Stand-in: first the current
    /// token, if one was issued, then each new one; ends when the activity ends.
    public var pushTokenUpdates: Activity<Attributes>.PushTokenUpdates {
        PushTokenUpdates(source: pushTokens)
    }

    /// Apple's `Activity.activityStateUpdates`: the activity's state changes (not its current state);
    /// ends after `ended` or `dismissed`.
    public var activityStateUpdates: Activity<Attributes>.ActivityStateUpdates {
        ActivityStateUpdates(source: stateChanges)
    }

    /// Apple's `Activity.activityUpdates`: each activity of this type that starts (by the app's request
    /// or by the system) from the moment the iterator is made.
    public static var activityUpdates: Activity<Attributes>.ActivityUpdates {
        ActivityUpdates(source: record.activityUpdates)
    }

    /// Apple's `Activity.pushToStartTokenUpdates`: the type's push-to-start tokens. Apple's type is
    /// `PushTokenUpdates`, as here. Stand-in: first the current token, if any, then each new one.
    @available(iOS 17.2, *)
    public static var pushToStartTokenUpdates: Activity<Attributes>.PushTokenUpdates {
        PushTokenUpdates(source: record.pushToStartTokens)
    }

    /// Apple's `Activity.PushTokenUpdates`: an asynchronous sequence of push tokens.
    public struct PushTokenUpdates: AsyncSequence {
        public typealias Element = Data

        let source: Broadcaster<Data>

        public func makeAsyncIterator() -> Iterator {
            Iterator(base: source.subscribe().makeAsyncIterator())
        }

        /// Apple's `Activity.PushTokenUpdates.Iterator`.
        public struct Iterator: AsyncIteratorProtocol {
            public typealias Failure = Never

            var base: AsyncStream<Data>.Iterator

            public mutating func next() async -> Data? {
                await base.next()
            }
        }
    }

    /// Apple's `Activity.ActivityStateUpdates`: an asynchronous sequence of activity states.
    public struct ActivityStateUpdates: AsyncSequence {
        public typealias Element = ActivityState

        let source: Broadcaster<ActivityState>

        public func makeAsyncIterator() -> Iterator {
            Iterator(base: source.subscribe().makeAsyncIterator())
        }

        /// Apple's `Activity.ActivityStateUpdates.Iterator`.
        public struct Iterator: AsyncIteratorProtocol {
            public typealias Failure = Never

            var base: AsyncStream<ActivityState>.Iterator

            public mutating func next() async -> ActivityState? {
                await base.next()
            }
        }
    }

    /// Apple's `Activity.ActivityUpdates`: an asynchronous sequence of activities.
    public struct ActivityUpdates: AsyncSequence {
        public typealias Element = Activity<Attributes>

        let source: Broadcaster<Activity<Attributes>>

        public func makeAsyncIterator() -> Iterator {
            Iterator(base: source.subscribe().makeAsyncIterator())
        }

        /// Apple's `Activity.ActivityUpdates.Iterator`.
        public struct Iterator: AsyncIteratorProtocol {
            public typealias Failure = Never

            var base: AsyncStream<Activity<Attributes>>.Iterator

            public mutating func next() async -> Activity<Attributes>? {
                await base.next()
            }
        }
    }
}
