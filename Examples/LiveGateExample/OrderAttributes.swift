import ActivityKit
import LiveGateKit

/// One food order: shared by the app and its widget extension. `brazeActivityId` lets a push-to-start
/// from the gateway tag the activity it starts.
struct OrderAttributes: ActivityAttributes, LiveGateActivityAttributes {
    struct ContentState: Codable, Hashable {
        var step: String
        var eta: String
    }

    var orderNumber: String
    var brazeActivityId: String?
}
