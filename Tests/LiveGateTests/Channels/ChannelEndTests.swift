import APNsClient
import APNsCore
import Foundation
import HTTPTypes
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import TestSupport
import Testing

/// An ended activity's channel: kept for the retention period, then deleted at APNs by housekeeping.
@Suite("Channel end and retention", .requiresPostgres)
struct ChannelEndTests {
    @Test func anEndStartsTheRetentionAndTheChannelStaysVisible() async throws {
        try await ChannelHarness.with { harness in
            try await harness.api { client in
                let channelID = try #require(try await harness.create("game-42", client).json["channel_id"]?.stringValue)
                try await harness.update("game-42", end: false, client)
                try await harness.update("game-42", end: true, externalID: "fan-1", client)
                #expect(try await harness.rows()["game-42"]?.state == "live", "an update, or an end for one user, keeps it live")

                try await harness.update("game-42", end: true, client)
                #expect(try await harness.rows()["game-42"]?.state == "ending")
                let seconds = try #require(try await harness.secondsUntilDeletion("game-42"))
                #expect(seconds > 3590 && seconds <= 3600)

                // Still at APNs: the SDK still finds it, and creating it again answers it.
                let app = harness.tenant.app.identifier
                let found = try await client.execute(uri: "/push_channel?app_id=\(app)&activity_id=game-42", method: .get)
                #expect(found.status == .ok)
                try expectJSON(found.json, equals: #"{"channel_id":"\#(channelID)"}"#)
                let again = try await harness.create("game-42", client)
                #expect(again.status == .ok)
                #expect(try again.json["channel_id"]?.stringValue == channelID)
                #expect(try await harness.simulatorChannels().map(\.id) == [channelID])
            }
            #expect(try await harness.deleteEndedChannels() == 0, "not before its retention is over")
            #expect(try await harness.rows()["game-42"]?.state == "ending")
        }
    }

    @Test func anEndRefusedForAReusedIdempotencyKeyLeavesTheChannelLive() async throws {
        try await ChannelHarness.with { harness in
            try await harness.api { client in
                _ = try await harness.create("game-42", client)
                let key: HTTPFields = [HTTPField.Name("Idempotency-Key")!: "k-1"]
                let fields = #""app_id":"\#(harness.tenant.app.identifier)","activity_id":"game-42","content_state":{}"#
                let first = try await client.post(
                    "/messages/live_activity/update", "{\(fields)}", key: harness.tenant.secret, headers: key)
                #expect(first.status == .created)
                let reused = try await client.post(
                    "/messages/live_activity/update", #"{\#(fields),"end_activity":true}"#, key: harness.tenant.secret,
                    headers: key)
                #expect(reused.status == .conflict)
            }
            #expect(try await harness.rows()["game-42"]?.state == "live")
        }
    }

    @Test func housekeepingDeletesAnEndedChannelAtAPNsAndLocally() async throws {
        try await ChannelHarness.with(retention: .zero) { harness in
            try await harness.api { client in
                _ = try await harness.create("game-42", client)
                _ = try await harness.create("game-43", client)
                try await harness.update("game-42", end: true, client)
            }
            let kept = try #require(try await harness.rows()["game-43"]?.channelID)
            #expect(try await harness.deleteEndedChannels() == 1)
            #expect(try await harness.simulatorChannels().map(\.id) == [kept])
            #expect(try await harness.rows().keys.sorted() == ["game-43"])
            #expect(try await harness.log().isEmpty)
        }
    }

    @Test func aChannelAPNsForgotCountsAsDeleted() async throws {
        try await ChannelHarness.with(retention: .zero) { harness in
            try await harness.api { client in
                let channelID = try #require(try await harness.create("game-42", client).json["channel_id"]?.stringValue)
                try await harness.update("game-42", end: true, client)
                // Deleted behind the gateway's back: APNs answers 404 to the next delete.
                _ = await harness.manager.delete(
                    ChannelID(rawValue: channelID), for: try #require(harness.tenant.app.channelDestination))
                #expect(try await harness.simulatorChannels().isEmpty)
            }
            #expect(try await harness.deleteEndedChannels() == 1)
            #expect(try await harness.rows().isEmpty)
        }
    }

    @Test func anAPNsFailureKeepsTheChannelForTheNextRound() async throws {
        try await ChannelHarness.with(retention: .zero) { harness in
            try await harness.api { client in
                _ = try await harness.create("game-42", client)
                try await harness.update("game-42", end: true, client)
            }
            let channelID = try #require(try await harness.rows()["game-42"]?.channelID)
            try await harness.fault(500, "InternalServerError")
            #expect(try await harness.deleteEndedChannels(lease: .zero) == 0)
            #expect(try await harness.rows()["game-42"]?.state == "ending")
            #expect(try await harness.simulatorChannels().map(\.id) == [channelID])
            let log = try await harness.log()
            #expect(log.map(\.type) == ["Other Live Activity errors"])
            #expect(log.first?.message == "APNs refused to delete the broadcast channel: 500 InternalServerError")

            try await harness.clearFault()
            #expect(try await harness.deleteEndedChannels(lease: .zero) == 1)
            #expect(try await harness.simulatorChannels().isEmpty)
            #expect(try await harness.rows().isEmpty)
        }
    }

    @Test func twoGatewaysClaimDifferentChannels() async throws {
        try await ChannelHarness.with(retention: .zero) { harness in
            try await harness.api { client in
                for index in 0..<6 {
                    _ = try await harness.create("game-\(index)", client)
                    try await harness.update("game-\(index)", end: true, client)
                }
            }
            let store = PostgresChannelStore(pool: harness.database.pool)
            async let first = store.claimExpired(limit: 6, lease: .seconds(60))
            async let second = store.claimExpired(limit: 6, lease: .seconds(60))
            let claimed = try await (first + second).map(\.activityID)
            #expect(claimed.sorted() == (0..<6).map { "game-\($0)" }, "each channel claimed once")
            #expect(try await store.claimExpired(limit: 6, lease: .seconds(60)).isEmpty, "leased")
            #expect(try await harness.deleteEndedChannels() == 0)
        }
    }
}
