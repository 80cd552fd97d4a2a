import ActivityKit
import LiveGateKit
import SwiftUI

/// Places an order and starts its Live Activity; the server updates it through the gateway with
/// `POST /messages/live_activity/update` and `"activity_id": "order-<number>"`.
struct OrderView: View {
    let liveGate: LiveGate
    @State private var message = ""

    var body: some View {
        VStack(spacing: 16) {
            Button("Order a pizza") { start() }
            Text(message).font(.footnote)
        }
        .padding()
    }

    private func start() {
        let number = String(Int.random(in: 1000...9999))
        do {
            let activity = try Activity.request(
                attributes: OrderAttributes(orderNumber: number),
                content: ActivityContent(state: .init(step: "Received", eta: "20 min"), staleDate: nil),
                pushType: .token)
            liveGate.liveActivities.launchActivity(pushTokenTag: "order-\(number)", activity: activity)
            message = "Following order-\(number)"
        } catch {
            message = "Could not start the activity: \(error.localizedDescription)"
        }
    }
}
