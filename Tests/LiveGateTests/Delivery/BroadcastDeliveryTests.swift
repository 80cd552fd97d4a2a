import APNsClient
import APNsCore
import APNsSimulator
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

extension DeliveryHarness {
    /// A channel made at the simulator through the APNs client, recorded as the channel routes record it.
    func makeChannel(
        activityID: String = "game-42", policy: MessageStoragePolicy = .mostRecentMessageStored
    ) async throws -> ChannelID {
        let manager = APNsChannelManager(tokens: tokenCache, transport: .init(trustedCAFile: certificate.certificateFile))
        let result = await manager.create(ChannelSettings(messageStoragePolicy: policy), for: try #require(tenant.app.destination))
        await manager.shutdown()
        guard case .answered(let response) = result, response.status == 201, let channel = response.channelID else {
            throw PostgresError(code: .decodingFailed, message: "the simulator made no channel: \(result)")
        }
        try await database.pool.query(
            """
            INSERT INTO broadcast_channels (app_id, activity_id, state, channel_id, message_storage_policy)
            VALUES ($1, $2, 'live', $3, $4)
            """,
            [tenant.app.id, activityID, channel.rawValue, policy.rawValue])
        return channel
    }

    /// The dispatch's broadcast columns.
    func broadcastColumns(_ id: String) async throws -> PostgresRow {
        try await database.pool.query(
            """
            SELECT broadcast_channel_id, broadcast_status::int AS broadcast_status, broadcast_reason,
                   broadcast_at IS NOT NULL AS broadcast_recorded, status
            FROM dispatches WHERE id = $1
            """, [id])[0]
    }

    func channelState(activityID: String = "game-42") async throws -> String {
        try await database.pool.query(
            "SELECT state FROM broadcast_channels WHERE app_id = $1 AND activity_id = $2", [tenant.app.id, activityID]
        )[0].require("state")
    }
}

@Suite("Delivery through broadcast channels", .requiresPostgres)
struct BroadcastDeliveryTests {
    @Test func anUpdateOnAChannelIsOneBroadcastPlusAPushPerRegisteredToken() async throws {
        try await DeliveryHarness.with { harness in
            try await harness.register(token(0x2a), device: "old-iphone-1")
            try await harness.register(token(0x2b), device: "old-iphone-2")
            let channel = try await harness.makeChannel()
            let id = try await harness.update(#""content_state":{"home":2,"away":1}"#)

            #expect(try await harness.engine.deliverDue() == 1)

            let broadcasts = harness.simulator.broadcasts
            #expect(broadcasts.count == 1)
            let broadcast = try #require(broadcasts.first)
            let row = try await harness.dispatch(id)
            let payload = Array(try row.require("payload", as: String.self).utf8)
            #expect(broadcast.channelID == channel)
            #expect(broadcast.bundleID == APNsSimulatorTests.bundleID)
            #expect(broadcast.payload == payload)
            #expect(broadcast.headers["apns-channel-id"] == channel.rawValue)
            #expect(broadcast.headers["apns-push-type"] == "liveactivity")
            #expect(broadcast.headers["apns-priority"] == "10")
            #expect(broadcast.headers["apns-expiration"] == String(try row.require("expires_epoch", as: Int64.self)))
            #expect(broadcast.headers["authorization"]?.hasPrefix("bearer ey") == true)
            #expect(Set(harness.simulator.received.map(\.deviceToken)) == [token(0x2a), token(0x2b)])

            let columns = try await harness.broadcastColumns(id)
            #expect(try columns.require("broadcast_status", as: Int.self) == 200)
            #expect(try columns.require("broadcast_channel_id", as: String.self) == channel.rawValue)
            #expect(try columns.require("status", as: String.self) == "done")
            #expect(try row.require("sent_count", as: Int.self) == 2)
            #expect(try await harness.log().isEmpty)
        }
    }

    @Test func aChannelThatStoresNoMessageGetsExpirationZero() async throws {
        try await DeliveryHarness.with { harness in
            _ = try await harness.makeChannel(policy: .noMessageStored)
            try await harness.update(#""content_state":{"n":1}"#)
            try await harness.engine.deliverDue()
            #expect(harness.simulator.broadcasts.map { $0.headers["apns-expiration"] } == ["0"])
        }
    }

    @Test func anUpdateNarrowedToAUserSendsNoBroadcast() async throws {
        try await DeliveryHarness.with { harness in
            try await harness.register(token(0x3a), device: "phone-a", externalID: "fan-7")
            _ = try await harness.makeChannel()
            let id = try await harness.update(#""content_state":{"n":1},"external_id":"fan-7""#)
            try await harness.engine.deliverDue()
            #expect(harness.simulator.broadcasts.isEmpty)
            #expect(harness.simulator.received.map(\.deviceToken) == [token(0x3a)])
            #expect(try await harness.broadcastColumns(id).require("broadcast_recorded", as: Bool.self) == false)
        }
    }

    /// The subscribers are on the channel: no "no device registered" entry for an activity without tokens.
    @Test func aChannelWithoutRegisteredTokensIsNotLoggedAsNobody() async throws {
        try await DeliveryHarness.with { harness in
            _ = try await harness.makeChannel()
            let id = try await harness.update(#""content_state":{"n":1}"#)
            try await harness.engine.deliverDue()
            #expect(harness.simulator.broadcasts.count == 1)
            #expect(try await harness.broadcastColumns(id).require("status", as: String.self) == "done")
            #expect(try await harness.log().isEmpty)
        }
    }

    @Test func anEndIsBroadcastToo() async throws {
        try await DeliveryHarness.with { harness in
            _ = try await harness.makeChannel()
            try await harness.update(#""content_state":{"n":9},"end_activity":true"#)
            try await harness.engine.deliverDue()
            let broadcast = try #require(harness.simulator.broadcasts.first)
            #expect(try JSONValue.parse(broadcast.payload)["aps"]?["event"]?.stringValue == "end")
        }
    }

    @Test func aChannelAPNsForgotIsMarkedGoneAndTheTokensStillGetTheUpdate() async throws {
        try await DeliveryHarness.with { harness in
            try await harness.register(token(0x4a), device: "old-iphone")
            let channel = try await harness.makeChannel()
            let manager = APNsChannelManager(transport: .init(trustedCAFile: harness.certificate.certificateFile))
            _ = await manager.delete(channel, for: try #require(harness.tenant.app.destination))
            await manager.shutdown()

            let id = try await harness.update(#""content_state":{"n":1}"#)
            try await harness.engine.deliverDue()

            #expect(harness.simulator.broadcasts.isEmpty)
            #expect(harness.simulator.received.map(\.deviceToken) == [token(0x4a)])
            #expect(try await harness.channelState() == "gone")
            #expect(try await harness.broadcastColumns(id).require("broadcast_status", as: Int.self) == 404)
            let log = try await harness.log()
            #expect(log.count == 1)
            #expect(try log[0].require("type", as: String.self) == "Other Live Activity errors")
            #expect(try log[0].require("message", as: String.self).contains(channel.rawValue))

            // The next update does not try the gone channel again.
            try await harness.update(#""content_state":{"n":2}"#)
            try await harness.engine.deliverDue()
            #expect(try await harness.log().count == 1)
            #expect(harness.simulator.received.count == 2)
        }
    }

    /// APNs's answers to the broadcast: 400 `BadChannelId` and 410 mean the channel is gone; 500 is
    /// retried, then logged; another 400 is logged and not retried. The tokens get their push each time.
    @Test(arguments: [
        (400, "BadChannelId", true, 1), (410, "Unregistered", true, 1), (500, "InternalServerError", false, 4),
        (400, "BadPriority", false, 1),
    ])
    func broadcastFaults(status: Int, reason: String, gone: Bool, tries: Int) async throws {
        try await DeliveryHarness.with { harness in
            try await harness.register(token(0x5a), device: "old-iphone")
            _ = try await harness.makeChannel()
            harness.simulator.setBehavior(.fail(status: status, reason: reason), forApp: APNsSimulatorTests.bundleID)

            let id = try await harness.update(#""content_state":{"n":1}"#)
            try await harness.engine.deliverDue()

            #expect(harness.simulator.rejections[reason] == tries)
            #expect(harness.simulator.received.map(\.deviceToken) == [token(0x5a)])
            #expect(try await harness.channelState() == (gone ? "gone" : "live"))
            let columns = try await harness.broadcastColumns(id)
            #expect(try columns.require("broadcast_status", as: Int.self) == status)
            #expect(try columns.require("broadcast_reason", as: String.self) == reason)
            #expect(try columns.require("status", as: String.self) == "done")
            let log = try await harness.log()
            #expect(log.count == 1)
            #expect(try log[0].require("apns_status", as: Int.self) == status)
            #expect(try log[0].require("apns_reason", as: String.self) == reason)
        }
    }
}
