import APNsCore
import APNsSimulator
import Foundation
import HTTPTypes
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import NIOConcurrencyHelpers
import PostgresClient
import TestSupport
import Testing

extension DeliveryHarness {
    /// Reports `state` for `device` through the router, as the SDK does.
    func report(_ state: String, device: String, activity: String = "game-42", extra: String = "") async throws {
        try await api { client async throws in
            let response = try await client.reportState(tenant, device: device, activity: activity, state: state, extra: extra)
            #expect(response.status == .created, "\(response.text)")
        }
    }

    /// The start's one target row: its APNs answer and confirmation.
    func startTarget(device: String) async throws -> (status: Int?, answered: Bool, confirmed: Bool) {
        let row = try await database.pool.query(
            """
            SELECT t.apns_status::int AS status, t.answered_at IS NOT NULL AS answered, t.confirmed_at IS NOT NULL AS confirmed
            FROM dispatch_targets t JOIN dispatches d ON d.id = t.dispatch_id
            WHERE d.app_id = $1 AND t.device_id = $2
            """, [tenant.app.id, device])[0]
        return (try row.decode("status"), try row.require("answered"), try row.require("confirmed"))
    }
}

@Suite("Device truth: what devices report changes what they are sent", .requiresPostgres)
struct DeviceTruthDeliveryTests {
    @Test func aDismissedDeviceGetsNoFurtherUpdateWhileTheOthersDo() async throws {
        try await DeliveryHarness.with { harness in
            try await harness.register(token(0x21), device: "phone-a")
            try await harness.register(token(0x22), device: "phone-b")
            try await harness.report("dismissed", device: "phone-a")

            let id = try await harness.update(#""content_state":{"step":"on its way"}"#)
            try await harness.engine.deliverDue()

            #expect(harness.simulator.received.map(\.deviceToken) == [token(0x22)])
            #expect(try await harness.tokens() == [token(0x22)])
            #expect(try await harness.dispatch(id).require("sent_count", as: Int.self) == 1)
        }
    }

    @Test func anOlderActiveReportArrivingLateDoesNotUndoAnEnd() async throws {
        try await DeliveryHarness.with { harness in
            try await harness.register(token(0x23), device: "phone-a")
            try await harness.report("ended", device: "phone-a", extra: #","reported_at":"2026-11-25T12:00:09Z""#)
            try await harness.register(token(0x23), device: "phone-a")  // a late retry of the SDK's first registration
            try await harness.report("active", device: "phone-a", extra: #","reported_at":"2026-11-25T12:00:01Z""#)
            #expect(try await harness.database.deviceState(harness.tenant, device: "phone-a")?.state == "ended")
        }
    }

    @Test func aChannelMemberGetsTheBroadcastAndNoTokenPushWhileOthersKeepTheirs() async throws {
        try await DeliveryHarness.with { harness in
            let channel = try await harness.makeChannel()
            try await harness.register(token(0x31), device: "member")
            try await harness.register(token(0x32), device: "no-channel")
            try await harness.register(token(0x33), device: "other-channel")
            try await harness.report("active", device: "member", extra: #","channel_id":"\#(channel.rawValue)""#)
            try await harness.report("active", device: "no-channel")
            try await harness.report("active", device: "other-channel", extra: #","channel_id":"c29tZS1vdGhlci1jaGFubmVs""#)

            let id = try await harness.update(#""content_state":{"score":"1-0"}"#)
            try await harness.engine.deliverDue()

            #expect(harness.simulator.broadcasts.map(\.channelID) == [channel])
            #expect(Set(harness.simulator.received.map(\.deviceToken)) == [token(0x32), token(0x33)])
            let row = try await harness.dispatch(id)
            #expect(try row.require("status", as: String.self) == "done")
            #expect(try row.require("sent_count", as: Int.self) == 2)
        }
    }

    @Test func whenTheBroadcastFailsAChannelMemberStillGetsItsTokenPush() async throws {
        try await DeliveryHarness.with { harness in
            // A channel APNs does not know: the broadcast is refused, so the token is the only way left.
            try await harness.database.pool.query(
                "INSERT INTO broadcast_channels (app_id, activity_id, state, channel_id, message_storage_policy) VALUES ($1, 'game-42', 'live', $2, 1)",
                [harness.tenant.app.id, "dW5rbm93bi1jaGFubmVs"])
            try await harness.register(token(0x34), device: "member")
            try await harness.report("active", device: "member", extra: #","channel_id":"dW5rbm93bi1jaGFubmVs""#)

            try await harness.update(#""content_state":{"score":"2-0"}"#)
            try await harness.engine.deliverDue()

            #expect(harness.simulator.received.map(\.deviceToken) == [token(0x34)])
        }
    }

    @Test func aStartIsConfirmedByTheUpdateTokenItsActivityRegisters() async throws {
        try await DeliveryHarness.with { harness in
            _ = try await harness.startDeliveredToFan(activityID: "match-7")
            let sent = try await harness.startTarget(device: "phone-a")
            #expect(sent.status == 200 && sent.answered && !sent.confirmed)

            // The started activity reports its update token under the start's activity id.
            try await harness.register(token(0x7b), device: "phone-a", tag: "match-7")
            #expect(try await harness.startTarget(device: "phone-a").confirmed)

            let checked = try await UnconfirmedStarts(pool: harness.database.pool, after: .zero).check()
            #expect(checked.starts == 1 && checked.unconfirmedDevices == 0)
            #expect(try await harness.log().isEmpty)
        }
    }

    @Test func aTokenUnderAnotherActivityOrFromAnotherDeviceConfirmsNothing() async throws {
        try await DeliveryHarness.with { harness in
            _ = try await harness.startDeliveredToFan(activityID: "match-7")
            try await harness.register(token(0x7c), device: "phone-a", tag: "match-8")
            try await harness.register(token(0x7d), device: "phone-b", tag: "match-7")
            #expect(try await !harness.startTarget(device: "phone-a").confirmed)
        }
    }

    @Test func anActiveReportConfirmsAStart() async throws {
        try await DeliveryHarness.with { harness in
            _ = try await harness.startDeliveredToFan(activityID: "match-7")
            try await harness.report("active", device: "phone-a", activity: "match-7")
            #expect(try await harness.startTarget(device: "phone-a").confirmed)
        }
    }

    @Test func aStartLeftUnconfirmedIsLoggedOnceWithItsDeviceCount() async throws {
        try await DeliveryHarness.with { harness in
            _ = try await harness.startDeliveredToFan(activityID: "match-7")
            let notYet = try await UnconfirmedStarts(pool: harness.database.pool, after: .seconds(300)).check()
            #expect(notYet.starts == 0)

            let check = UnconfirmedStarts(pool: harness.database.pool, after: .zero)
            let first = try await check.check()
            #expect(first.starts == 1 && first.unconfirmedDevices == 1)
            #expect(try await check.check().starts == 0)

            let log = try await harness.log()
            #expect(log.count == 1)
            let entry = try #require(log.first)
            #expect(try entry.require("type", as: String.self) == "Other Live Activity errors")
            #expect(try entry.require("activity_id", as: String.self) == "match-7")
            #expect(try entry.require("message", as: String.self).hasPrefix("Live Activity start not confirmed on 1 device:"))
            let start: UUID = try await harness.database.pool.query("SELECT id FROM dispatches WHERE event = 'start'")[0].require("id")
            #expect(try entry.require("dispatch_id", as: UUID.self) == start)

            // A confirmation after the check is still recorded.
            try await harness.register(token(0x7b), device: "phone-a", tag: "match-7")
            #expect(try await harness.startTarget(device: "phone-a").confirmed)
        }
    }
}
