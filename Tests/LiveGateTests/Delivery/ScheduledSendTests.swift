import APNsClient
import APNsCore
import APNsSimulator
import Foundation
import HTTPTypes
import Hummingbird
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

/// `send_at`: accepted, counted and committed now, delivered at that time (within a poll interval after
/// it, never before), with the payload's timestamp and apns-expiration counted from it.
@Suite("Scheduled sends", .requiresPostgres)
struct ScheduledSendTests {
    @Test func aFutureSendAtIsDeliveredOnTimeAndNotBefore() async throws {
        try await DeliveryHarness.with { harness in
            try await harness.register(token(0x7a), device: "phone")
            try await DeliveryServiceTests.running(harness.engine) {
                // Far enough ahead that a loaded machine still accepts it before its time.
                let sendAt = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 8).rounded(.down) + 0.5)
                // The resource's form: UTC with milliseconds (sendAt is whole seconds and a half).
                let text = String(sendAt.iso8601.dropLast()) + ".500Z"
                let id = try await harness.update(#""content_state":{"score":"kick-off"},"send_at":"\#(text)""#)
                let before = try await Self.resource(harness, id)
                #expect(before["send_at"]?.stringValue == text)
                if Date() < sendAt {
                    // Read before its time (not a given when the suite saturates the machine).
                    #expect(before["status"]?.stringValue == "scheduled")
                }
                try await DeliveryServiceTests.waitUntil("the push arrived", timeout: .seconds(30)) {
                    harness.simulator.received.count == 1
                }
                let push = try #require(harness.simulator.received.first)
                #expect(push.receivedAt >= sendAt, "not before its time")
                // Within a poll interval (50 ms here; well under a second when run alone). With the whole
                // suite sharing two cores the engine's tasks wait seconds for a thread, so the bound is
                // loose; it still catches a scheduled send left to the lease (30 s) or a retry delay.
                #expect(push.receivedAt < sendAt.addingTimeInterval(15), "delivered at the first poll after its time")
                let aps = try #require(try JSONValue.parse(push.payload)["aps"])
                #expect(aps["timestamp"]?.numberLexeme == String(Int64(sendAt.timeIntervalSince1970)), "timestamped at its send time")
                #expect(push.headers["apns-expiration"] == String(Int64(sendAt.timeIntervalSince1970) + 12 * 3600))
                try await DeliveryServiceTests.waitUntil("the dispatch is done") {
                    try await Self.resource(harness, id)["status"]?.stringValue == "done"
                }
            }
        }
    }

    @Test func aPastSendAtMeansNow() async throws {
        try await DeliveryHarness.with { harness in
            try await harness.register(token(0x7b), device: "phone")
            let before = Int64(Date().timeIntervalSince1970)
            let id = try await harness.update(#""content_state":{"n":1},"send_at":"2020-01-01T00:00:00+0000""#)
            #expect(try await Self.resource(harness, id)["status"]?.stringValue == "pending")
            #expect(try await Self.resource(harness, id)["send_at"]?.isNull == true, "sent as if it had none")
            #expect(try await harness.engine.deliverDue() == 1)
            let push = try #require(harness.simulator.received.first)
            let timestamp = try #require(Int64(try JSONValue.parse(push.payload)["aps"]?["timestamp"]?.numberLexeme ?? ""))
            #expect(timestamp >= before, "the payload is stamped now, not in 2020")
        }
    }

    @Test(arguments: [
        (#""send_at":"tomorrow""#, "send_at must be an ISO-8601 date-time with a time zone"),
        (#""send_at":1700000000"#, "send_at must be an ISO-8601 date-time with a time zone"),
        (#""send_at":"2031-02-30T10:00:00Z""#, "send_at must be an ISO-8601 date-time with a time zone"),
        (#""send_at":"2031-01-01T10:00:00""#, "send_at must be an ISO-8601 date-time with a time zone"),
        (#""send_at":"2099-01-01T00:00:00Z""#, "send_at must be at most 7 days ahead"),
    ])
    func aBadSendAtIsRefusedNamingTheField(field: String, problem: String) async throws {
        try await DispatchAPI.with { api in
            let app = api.tenant.app.identifier
            let update = #"{"app_id":"\#(app)","activity_id":"m","content_state":{},\#(field)}"#
            let start = #"""
                {"app_id":"\#(app)","activity_id":"m","activity_attributes_type":"T","activity_attributes":{},
                 "content_state":{},"external_user_ids":["u"],"notification":{"alert":{"title":"t","body":"b"}},\#(field)}
                """#
            for (path, body) in [("/messages/live_activity/update", update), ("/messages/live_activity/start", start)] {
                let response = try await api.client.post(path, body, key: api.tenant.secret)
                #expect(response.status == .badRequest, "\(path)")
                #expect(response.errors.contains { $0.hasPrefix(problem) }, "\(path): \(response.errors)")
            }
            #expect(try await api.database.count("SELECT count(*) FROM dispatches") == 0, "nothing committed")
        }
    }

    @Test func sevenDaysAheadIsAcceptedAndAStartCanBeScheduled() async throws {
        try await DispatchAPI.with { api in
            let sendAt = Date().addingTimeInterval(7 * 86_400 - 60)
            let update = try await api.update(sendAt: sendAt.iso8601)
            let start = try await api.start(sendAt: sendAt.iso8601)
            #expect(try await api.status(update) == "scheduled")
            #expect(try await api.status(start) == "scheduled")
            let payload = try await api.database.payload(ofDispatch: start)
            #expect(payload["aps"]?["timestamp"]?.numberLexeme == String(Int64(sendAt.timeIntervalSince1970)))
        }
    }

    /// A scheduled end is what customers write cron jobs for: the activity, and its channel, end at its
    /// time, not when it was accepted.
    @Test func aScheduledEndEndsTheChannelWhenItIsSent() async throws {
        try await ChannelHarness.with { harness in
            try await harness.api { client in
                _ = try await harness.create("game-42", client)
                let later = Date().addingTimeInterval(3600).iso8601
                let body =
                    #"{"app_id":"\#(harness.tenant.app.identifier)","activity_id":"game-42","content_state":{},"end_activity":true,"send_at":"\#(later)"}"#
                #expect(try await client.post("/messages/live_activity/update", body, key: harness.tenant.secret).status == .created)
            }
            #expect(try await harness.rows()["game-42"]?.state == "live", "not ended before its time")
            try await harness.database.pool.query("UPDATE dispatches SET send_at = now(), next_attempt_at = now()")
            let engine = DeliveryEngine(
                queue: PostgresDeliveryQueue(pool: harness.database.pool), tenancy: harness.database.tenancy,
                sender: APNsSender(transport: .init(trustedCAFile: harness.fixture.certificate.certificateFile)),
                settings: DeliverySettings(channelRetention: .seconds(600)), logger: .quiet)
            #expect(try await engine.deliverDue() == 1)
            await engine.shutdown()
            #expect(try await harness.rows()["game-42"]?.state == "ending")
            let seconds = try #require(try await harness.secondsUntilDeletion("game-42"))
            #expect(seconds > 590 && seconds <= 600)
        }
    }

    static func resource(_ harness: DeliveryHarness, _ id: String) async throws -> JSONValue {
        let json = NIOLockedValueBox<JSONValue?>(nil)
        try await harness.api { client in
            let response = try await client.execute(
                uri: "/messages/live_activity/dispatches/\(id)", method: .get, headers: .bearer(harness.tenant.secret), body: nil)
            json.withLockedValue { $0 = try? response.json }
        }
        return try #require(json.withLockedValue { $0 })
    }
}
