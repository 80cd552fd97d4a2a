import APNsCore
import Foundation
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

/// `start` for an activity with a live broadcast channel starts it on the channel.
@Suite("Channel start", .requiresPostgres)
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
            let aps = try await harness.startDeliveredToFan(activityID: "match-9")
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
            let aps = try await harness.startDeliveredToFan(activityID: "match-10")
            #expect(aps["input-push-token"]?.numberLexeme == "1")
            #expect(aps["input-push-channel"] == nil)
        }
    }
}
