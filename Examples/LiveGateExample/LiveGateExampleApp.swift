import LiveGateKit
import SwiftUI

@main
struct LiveGateExampleApp: App {
    let liveGate: LiveGate

    init() {
        // The five lines an app needs: the SDK, the user, resuming and push-to-start.
        liveGate = try! LiveGate(
            configuration: .init(gatewayURL: URL(string: "https://push.example.com")!, appID: "YOUR-APP-ID"))
        liveGate.liveActivities.resumeActivities(ofType: OrderAttributes.self)
        liveGate.liveActivities.registerPushToStart(forType: OrderAttributes.self, name: "OrderAttributes")
    }

    var body: some Scene {
        WindowGroup {
            OrderView(liveGate: liveGate)
                .task { await liveGate.changeUser(externalID: "user-42") }
                .task {
                    for await error in liveGate.errors { print("LiveGate:", error) }
                }
        }
    }
}
