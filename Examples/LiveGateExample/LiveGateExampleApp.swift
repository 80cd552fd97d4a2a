import ActivityKit
import LiveGateKit
import SwiftUI

@main
struct LiveGateExampleApp: App {
    let liveGate: LiveGate

    init() {
        // The lines an app needs: the SDK, the user, resuming and push-to-start.
        liveGate = try! LiveGate(
            configuration: .init(gatewayURL: URL(string: "https://push.example.com")!, appID: "YOUR-APP-ID"))
        liveGate.changeUser(userId: "user-42")
        liveGate.liveActivities.resumeActivities(ofType: Activity<OrderAttributes>.self)
        liveGate.liveActivities.registerPushToStart(forType: Activity<OrderAttributes>.self, name: "OrderAttributes")
    }

    var body: some Scene {
        WindowGroup {
            OrderView(liveGate: liveGate)
                .task {
                    for await error in liveGate.errors { print("LiveGate:", error) }
                }
        }
    }
}
