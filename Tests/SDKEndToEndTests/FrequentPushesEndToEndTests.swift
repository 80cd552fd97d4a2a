import ActivityKit
import Foundation
import LiveGateKit
import PostgresClient
import TestSupport
import Testing

/// A race's activity, only this suite uses (the stand-in's device is global per attributes type).
struct RaceAttributes: ActivityAttributes, LiveGateActivityAttributes {
    struct ContentState: Codable, Hashable {
        var lap: Int
    }

    var circuit: String
    var brazeActivityId: String?
}

/// The person's "More Frequent Updates" setting, as the SDK follows it from ActivityKit, reaches the
/// gateway's record of the device.
@Suite("LiveGateKit's frequent-updates setting against a running gateway", .heavy, .requiresPostgres, .serialized)
struct FrequentPushesEndToEndTests {
    private func stored(_ harness: SDKHarness, device: String, activity: String) async throws -> Bool? {
        try await harness.database.pool.query(
            "SELECT frequent_pushes_enabled FROM activity_device_states WHERE device_id = $1 AND activity_id = $2",
            [device, activity]
        ).first?.decode("frequent_pushes_enabled", as: Bool.self)
    }

    @Test func theSettingAndItsChangeReachTheDevicesRecord() async throws {
        Activity<RaceAttributes>.standInReset()
        ActivityAuthorizationInfo.standInSetFrequentPushesEnabled(false)
        defer { ActivityAuthorizationInfo.standInSetFrequentPushesEnabled(false) }
        try await SDKHarness.with { harness in
            let liveGate = try harness.sdk()
            let activity = try Activity.request(
                attributes: RaceAttributes(circuit: "Monza"),
                content: ActivityContent(state: RaceAttributes.ContentState(lap: 1), staleDate: nil), pushType: .token)
            liveGate.liveActivities.launchActivity(pushTokenTag: "race-40", activity: activity)
            activity.standInSetPushToken(token(0x40))
            try await GatewayProcess.waitUntil("the state is reported with the setting") {
                try await stored(harness, device: liveGate.deviceID, activity: "race-40") == false
            }
            ActivityAuthorizationInfo.standInSetFrequentPushesEnabled(true)
            try await GatewayProcess.waitUntil("the change is reported") {
                try await stored(harness, device: liveGate.deviceID, activity: "race-40") == true
            }
            activity.standInSetState(.ended)
            await liveGate.shutdown()
        }
    }
}
