import APNsCore
import APNsSimulator
import Foundation
import HTTPTypes
import HummingbirdTesting
import LiveGate
import PostgresClient
import Testing
import TestSupport

/// `start` for an activity with a live broadcast channel starts it on the channel.
@Suite("Channel start")
struct ChannelStartTests {
    static let channelID = "c3RhcnQtY2hhbm5lbA=="

    @Test(arguments: [("live", true), ("ending", false)])
    func aStartCarriesTheLiveChannelInsteadOfTheTokenRequest(state: String, carried: Bool) async throws {
        try await DeliveryHarness.with { harness in
            // The row as a channel create leaves it (the create itself is tested with the channel routes).
            _ = try await harness.database.pool.query(
                """
                INSERT INTO broadcast_channels (app_id, activity_id, state, channel_id, message_storage_policy, delete_after)
                VALUES ($1, 'match-9', $2, $3, 0, CASE WHEN $2 = 'ending' THEN now() + interval '1 hour' END)
                """, [harness.tenant.app.id, state, Self.channelID])
            let aps = try await Self.startDelivered(activityID: "match-9", harness)
            #expect(aps["event"]?.stringValue == "start")
            if carried {
                #expect(aps["input-push-channel"]?.stringValue == Self.channelID)
                #expect(aps["input-push-token"] == nil)
            } else {
                #expect(aps["input-push-channel"] == nil)
                #expect(aps["input-push-token"]?.numberLexeme == "1")
            }
        }
    }

    @Test func aStartWithoutAChannelAsksForTheUpdateToken() async throws {
        try await DeliveryHarness.with { harness in
            let aps = try await Self.startDelivered(activityID: "match-10", harness)
            #expect(aps["input-push-token"]?.numberLexeme == "1")
            #expect(aps["input-push-channel"] == nil)
        }
    }

    /// Starts `activityID` for one user with a push-to-start token and returns the `aps` APNs received.
    static func startDelivered(activityID: String, _ harness: DeliveryHarness) async throws -> JSONValue {
        try await harness.database.registerPushToStart(
            harness.tenant, type: "MatchAttributes", device: "phone-a", token: token(0x7a), externalID: "fan-1")
        let body = #"""
            {"app_id":"\#(harness.tenant.app.identifier)","activity_id":"\#(activityID)",
             "activity_attributes_type":"MatchAttributes","activity_attributes":{"home":"A","away":"B"},
             "content_state":{"score":"0-0"},"external_user_ids":["fan-1"],
             "notification":{"alert":{"title":"Kick-off","body":"A v B"}}}
            """#
        try await harness.api { client in
            let response = try await client.post("/messages/live_activity/start", body, key: harness.tenant.secret)
            #expect(response.status == .created, "\(response.text)")
        }
        try await harness.engine.deliverDue()
        let received = harness.simulator.received
        #expect(received.map(\.deviceToken) == [token(0x7a)])
        let started = try #require(received.first)
        return try #require(try JSONValue.parse(started.payload)["aps"])
    }
}
