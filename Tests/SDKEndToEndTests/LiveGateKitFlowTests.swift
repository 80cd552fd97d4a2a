import APNsCore
import APNsSimulator
import ActivityKit
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateKit
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

/// The SDK against the real gateway, the stand-in playing the device: a push-to-start all the way to
/// a dismissed activity, as an app and its users would live it.
@Suite("LiveGateKit against a running gateway", .heavy, .requiresPostgres, .serialized)
struct LiveGateKitFlowTests {
    @Test func aPushToStartIsConfirmedUpdatedAndStoppedWhenDismissed() async throws {
        Activity<MatchAttributes>.standInReset()
        try await SDKHarness.with { harness in
            let liveGate = try harness.sdk()
            await liveGate.changeUser(externalID: "fan-1")
            liveGate.liveActivities.registerPushToStart(forType: MatchAttributes.self, name: "MatchAttributes")
            Activity<MatchAttributes>.standInSetPushToStartToken(token(0x7a))
            try await GatewayProcess.waitUntil("the push-to-start token is registered") {
                try await harness.database.pool.query(
                    "SELECT push_token FROM push_to_start_tokens WHERE attributes_type = 'MatchAttributes' AND device_id = $1",
                    [liveGate.deviceID]
                ).first?.require("push_token", as: String.self) == hex(0x7a)
            }

            // The customer's server starts the match for the fan; the simulator gets the push-to-start.
            let start = try await harness.post(
                "/messages/live_activity/start",
                #""activity_id":"match-1","activity_attributes_type":"MatchAttributes","activity_attributes":{"home":"A","away":"B"},"content_state":{"score":"0-0"},"external_user_ids":["fan-1"],"notification":{"alert":{"title":"Kick-off","body":"A v B"}}"#
            )
            #expect(start.status == 201, "\(start.text)")
            let startID = try #require(start.json?["dispatch_id"] as? String)
            try await harness.waitUntilDone(dispatches: 1)
            let pushed = try #require(harness.simulator.received.first { $0.deviceToken == hex(0x7a) })
            let aps = try #require(try JSONValue.parse(pushed.payload)["aps"])
            let attributes = try JSONDecoder().decode(MatchAttributes.self, from: Data(try #require(aps["attributes"]).serialized()))
            #expect(attributes.brazeActivityId == "match-1")
            let state = try JSONDecoder().decode(
                MatchAttributes.ContentState.self, from: Data(try #require(aps["content-state"]).serialized()))

            // iOS starts the activity; the SDK tags it with brazeActivityId and reports its update token.
            let activity = Activity<MatchAttributes>.standInSystemStart(
                attributes: attributes, content: ActivityContent(state: state, staleDate: nil))
            activity.standInSetPushToken(token(0x7b))
            try await GatewayProcess.waitUntil("the start is confirmed") {
                let resource = try await harness.get("/messages/live_activity/dispatches/\(startID)")
                return (resource.json?["confirmation"] as? [String: Any])?["confirmed"] as? Int == 1
            }
            #expect(try await harness.updateTokens(tag: "match-1") == [liveGate.deviceID: hex(0x7b)])

            // An update reaches the started activity's token.
            #expect(
                try await harness.post("/messages/live_activity/update", #""activity_id":"match-1","content_state":{"score":"1-0"}"#).status
                    == 201)
            try await harness.waitUntilDone(dispatches: 2)
            #expect(harness.simulator.received.filter { $0.deviceToken == hex(0x7b) }.count == 1)

            // Dismissed: no more pushes to it.
            activity.standInSetState(.dismissed)
            try await GatewayProcess.waitUntil("the dismissal is reported") {
                try await harness.updateTokens(tag: "match-1").isEmpty
            }
            #expect(
                try await harness.post("/messages/live_activity/update", #""activity_id":"match-1","content_state":{"score":"2-0"}"#).status
                    == 201)
            try await harness.waitUntilDone(dispatches: 3)
            #expect(harness.simulator.received.filter { $0.deviceToken == hex(0x7b) }.count == 1)
            let reported = try await harness.database.pool.query(
                "SELECT state FROM activity_device_states WHERE activity_id = 'match-1' AND device_id = $1", [liveGate.deviceID])
            #expect(try reported.first?.require("state", as: String.self) == "dismissed")
            await liveGate.shutdown()
        }
    }

    @Test func aRotatedTokenReplacesTheOldOneUnderTheTag() async throws {
        Activity<MatchAttributes>.standInReset()
        try await SDKHarness.with { harness in
            let liveGate = try harness.sdk()
            let activity = try Activity.request(
                attributes: MatchAttributes(home: "A", away: "B"),
                content: ActivityContent(state: MatchAttributes.ContentState(score: "0-0"), staleDate: nil), pushType: .token)
            liveGate.liveActivities.launchActivity(pushTokenTag: "order-5", activity: activity)
            activity.standInSetPushToken(token(0x11))
            try await GatewayProcess.waitUntil("the first token is registered") {
                try await harness.updateTokens(tag: "order-5") == [liveGate.deviceID: hex(0x11)]
            }
            activity.standInSetPushToken(token(0x12))
            try await GatewayProcess.waitUntil("the rotated token replaces it") {
                try await harness.updateTokens(tag: "order-5") == [liveGate.deviceID: hex(0x12)]
            }
            await liveGate.shutdown()
        }
    }

    @Test func aRelaunchedAppResumesItsActivitiesUnderTheirTags() async throws {
        Activity<MatchAttributes>.standInReset()
        try await SDKHarness.with { harness in
            let before = try harness.sdk()
            let activity = try Activity.request(
                attributes: MatchAttributes(home: "A", away: "B"),
                content: ActivityContent(state: MatchAttributes.ContentState(score: "0-0"), staleDate: nil), pushType: .token)
            before.liveActivities.launchActivity(pushTokenTag: "order-7", activity: activity)
            activity.standInSetPushToken(token(0x71))
            try await GatewayProcess.waitUntil("the token is registered") {
                try await harness.updateTokens(tag: "order-7") == [before.deviceID: hex(0x71)]
            }
            await before.shutdown()

            // The app is killed and launched again; the activity still runs and gets a new token.
            let after = try harness.sdk()
            after.liveActivities.resumeActivities(ofType: MatchAttributes.self)
            try await GatewayProcess.waitUntil("the activity is followed again") {
                await after.liveActivities.tag(forActivity: activity.id) == "order-7"
            }
            activity.standInSetPushToken(token(0x72))
            try await GatewayProcess.waitUntil("the new token is registered under the same tag") {
                try await harness.updateTokens(tag: "order-7") == [after.deviceID: hex(0x72)]
            }
            await after.shutdown()
        }
    }

    @Test func anActivityOnAChannelIsRequestedWithItAndReportedAsAMember() async throws {
        Activity<MatchAttributes>.standInReset()
        try await SDKHarness.with { harness in
            let channel = try await harness.post("/live_activity/channels", #""activity_id":"game-9""#)
            #expect(channel.status == 201, "\(channel.text)")
            let channelID = try #require(channel.json?["channel_id"] as? String)
            let liveGate = try harness.sdk()
            let activity = try await liveGate.liveActivities.startActivity(
                attributes: MatchAttributes(home: "A", away: "B"),
                content: ActivityContent(state: MatchAttributes.ContentState(score: "0-0"), staleDate: nil), onChannelOf: "game-9")
            #expect(Activity<MatchAttributes>.standInLastRequestedPushType == .channel(channelID))
            activity.standInSetState(.stale)
            try await GatewayProcess.waitUntil("the membership is reported") {
                let json = try await harness.get("/live_activity/activities/game-9?app_id=\(harness.tenant.app.identifier)").json
                return (json?["counts"] as? [String: Any])?["channel_members"] as? Int == 1
            }
            await liveGate.shutdown()
        }
    }
}
