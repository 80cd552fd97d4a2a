// Braze's documented Live Activity call sites, as an app that moves from Braze has them, with only the
// receiver renamed (`braze` to `liveGate`). Compiled by the SDK's tests (BrazeCallSitesTests runs them
// against the stand-in) and, copied by scripts/check-sdk-package.sh, by an app's package outside the
// repository.
#if canImport(ActivityKit)
    import ActivityKit
    import Foundation
    import LiveGateKit

    struct SportsActivityAttributes: ActivityAttributes, LiveGateActivityAttributes {
        public struct ContentState: Codable, Hashable {
            var teamOneScore: String
            var teamTwoScore: String
        }

        var gameName: String
        var gameNumber: String
        var brazeActivityId: String?
    }

    final class AppDelegate {
        nonisolated(unsafe) static var liveGate: LiveGate? = nil

        func application() -> Bool {
            if #available(iOS 16.1, *) {
                Self.liveGate?.changeUser(userId: "user-42")
                Self.liveGate?.liveActivities.resumeActivities(
                    ofType: Activity<SportsActivityAttributes>.self
                )
            }
            return true
        }
    }

    final class LiveActivityManager {
        nonisolated(unsafe) static var liveGate: LiveGate? = nil

        @available(iOS 17.2, *)
        func registerActivityType() {
            let pushToStartObserver: Task = Self.liveGate!.liveActivities.registerPushToStart(
                forType: Activity<SportsActivityAttributes>.self,
                name: "SportsActivityAttributes"
            )
            _ = pushToStartObserver
        }

        @available(iOS 16.2, *)
        func createActivity() {
            let activityAttributes = SportsActivityAttributes(gameName: "Superb Owl", gameNumber: "Game 1")
            let contentState = SportsActivityAttributes.ContentState(teamOneScore: "0", teamTwoScore: "0")
            let activityContent = ActivityContent(state: contentState, staleDate: nil)
            if let activity = try? Activity.request(
                attributes: activityAttributes,
                content: activityContent,
                pushType: .token)
            {
                let liveActivityObserver: Task = AppDelegate.liveGate!.liveActivities.launchActivity(
                    pushTokenTag: "sports-game-2024-03-15",
                    activity: activity)
                _ = liveActivityObserver
            }
        }

        @available(iOS 16.1, *)
        func unregister() {
            Self.liveGate?.liveActivities.unregisterPushToStart()
        }
    }
#endif
