import APNsSimulator
import Foundation
import LiveGateKit
import PostgresClient
import TestSupport
import Testing

/// On a shared or handed-down phone, the next person must not see the last person's activities: after
/// `logout()`, a start sent to the user who logged out no longer reaches the device.
@Suite("LiveGateKit's logout against a running gateway", .heavy, .requiresPostgres, .serialized)
struct LogoutTests {
    private func start(_ harness: SDKHarness, to user: String, activity: String) async throws {
        let answer = try await harness.post(
            "/messages/live_activity/start",
            #""activity_id":"\#(activity)","activity_attributes_type":"NewsAttributes","activity_attributes":{"topic":"local"},"content_state":{"headline":"Storm"},"external_user_ids":["\#(user)"],"notification":{"alert":{"title":"News","body":"Storm"}}"#
        )
        #expect(answer.status == 201, "\(answer.text)")
    }

    private func pushes(_ harness: SDKHarness) -> Int {
        harness.simulator.received.filter { $0.deviceToken == hex(0x61) }.count
    }

    @Test func afterLogoutAStartToThePreviousUserNoLongerReachesTheDevice() async throws {
        try await SDKHarness.with { harness in
            let liveGate = try harness.sdk()
            liveGate.changeUser(userId: "reader-1")
            await liveGate.liveActivities.reportPushToStartToken(token(0x61), type: "NewsAttributes")
            #expect(await liveGate.flush())
            try await start(harness, to: "reader-1", activity: "news-1")
            try await harness.waitUntilDone(dispatches: 1)
            #expect(pushes(harness) == 1)

            await liveGate.logout()
            #expect(await liveGate.flush())
            // The device reports the same token again with nobody signed in, as it does at each launch.
            await liveGate.liveActivities.reportPushToStartToken(token(0x61), type: "NewsAttributes")
            #expect(await liveGate.flush())
            let owner = try await harness.database.pool.query(
                "SELECT user_id FROM push_to_start_tokens WHERE device_id = $1 AND attributes_type = 'NewsAttributes'",
                [liveGate.deviceID])
            #expect(owner.count == 1)
            #expect(try owner.first?.decode("user_id", as: Int64.self) == nil, "the token belongs to no user")
            try await start(harness, to: "reader-1", activity: "news-2")
            try await harness.waitUntilDone(dispatches: 2)
            #expect(pushes(harness) == 1, "the user who logged out no longer reaches the device")

            // The next person signs in: the token is theirs.
            await liveGate.changeUser(externalID: "reader-2")
            #expect(await liveGate.flush())
            try await start(harness, to: "reader-2", activity: "news-3")
            try await harness.waitUntilDone(dispatches: 3)
            #expect(pushes(harness) == 2)
            await liveGate.shutdown()
        }
    }
}
