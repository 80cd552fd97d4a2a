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
import NIOCore
import PostgresClient
import TestSupport
import Testing

/// A 201 is a lock screen: what the activity's type would not decode is refused at the API (or, in warn
/// mode, accepted and said), and dates go out as ActivityKit reads them.
@Suite("Payload truth", .requiresPostgres)
struct PayloadTruthTests {
    /// Registers the type and an update token under "order-7" that names it, as LiveGateKit does.
    static func prepare(_ harness: DeliveryHarness, mode: String = "enforce") async throws {
        let app = harness.tenant.app.identifier
        try await harness.api { client in
            let put = try await ActivityTypeRoutesTests.call(
                client, .put, "/live_activity/types/\(DeliveryTracking.name)", DeliveryTracking.registration(appID: app, mode: mode),
                key: harness.tenant.secret)
            #expect(put.status == .created, "\(put.text)")
            let registered = try await client.post(
                "/push_token_tag",
                #"{"app_id":"\#(app)","device_id":"phone","tag":"order-7","push_token":"\#(token(0x70))","activity_attributes_type":"DeliveryTracking"}"#,
                key: nil)
            #expect(registered.status == .created, "\(registered.text)")
        }
    }

    static func update(_ harness: DeliveryHarness, _ contentState: String) async throws -> TestResponse {
        let box = NIOLockedValueBox<TestResponse?>(nil)
        try await harness.api { client in
            let response = try await client.post(
                "/messages/live_activity/update",
                #"{"app_id":"\#(harness.tenant.app.identifier)","activity_id":"order-7","content_state":\#(contentState)}"#,
                key: harness.tenant.secret)
            box.withLockedValue { $0 = response }
        }
        return try #require(box.withLockedValue { $0 })
    }

    @Test func whatTheAppCouldNotDecodeIsRefusedNamingEveryPath() async throws {
        try await DeliveryHarness.with { harness in
            try await Self.prepare(harness)
            let refused = try await Self.update(harness, #"{"status":"lost","eta":"soon","driver":7,"extra":true}"#)
            #expect(refused.status == .badRequest)
            let paths = refused.errors.map { String($0.prefix { $0 != ":" }) }
            #expect(
                paths.sorted() == ["$.content_state.driver", "$.content_state.eta", "$.content_state.status", "$.content_state.stops"],
                "\(refused.errors)")
            #expect(refused.errors.contains { $0.hasPrefix("$.content_state.stops: expected integer, got nothing") }, "\(refused.errors)")
            #expect(
                try refused.json["message"]?.stringValue == "Invalid request: the app could not decode this: 4 problems, listed in errors")
            #expect(try await harness.database.count("SELECT count(*) FROM dispatches") == 0, "nothing accepted")
        }
    }

    @Test func datesGoOutAsActivityKitReadsThemAndThePushDecodes() async throws {
        try await DeliveryHarness.with { harness in
            try await Self.prepare(harness)
            // Optional missing, unknown keys ignored, an ISO 8601 date with milliseconds.
            let accepted = try await Self.update(
                harness, #"{"status":"on_the_way","eta":"2026-12-24T18:30:00.250Z","stops":2,"note":"ring twice"}"#)
            #expect(accepted.status == .created, "\(accepted.text)")
            try await harness.engine.deliverDue()
            let push = try #require(harness.simulator.received.first)
            let state = try DeliveryTracking.decodeContentState(ofPayload: push.payload)
            let eta = try #require(ISO8601DateFormatter.withMilliseconds.date(from: "2026-12-24T18:30:00.250Z"))
            #expect(state == DeliveryTracking.ContentState(status: .onTheWay, eta: eta, driver: nil, stops: 2))
            #expect(state.eta.timeIntervalSinceReferenceDate == 819_829_800.25)

            // Seconds since 2001 as a number are taken as they are.
            #expect(try await Self.update(harness, #"{"status":"delivered","eta":851452200,"stops":0}"#).status == .created)
        }
    }

    @Test func aUnixTimestampIsRefusedWithItsConversion() async throws {
        try await DeliveryHarness.with { harness in
            try await Self.prepare(harness)
            let refused = try await Self.update(harness, #"{"status":"preparing","eta":1798137000,"stops":1}"#)
            #expect(refused.status == .badRequest)
            let error = try #require(refused.errors.first)
            #expect(error.hasPrefix("$.content_state.eta: "), "\(error)")
            #expect(error.contains("Unix time"), "\(error)")
            #expect(error.contains("2026-12-24T18:30:00Z"), "the date it would be as Unix time: \(error)")
            #expect(error.contains("819829800"), "the number to send instead: \(error)")
        }
    }

    @Test func warnModeAcceptsLogsOncePerActivityAndHourAndShowsIt() async throws {
        try await DeliveryHarness.with { harness in
            try await Self.prepare(harness, mode: "warn")
            let first = try await Self.update(harness, #"{"status":"lost","eta":851452200,"stops":1}"#)
            #expect(first.status == .created, "\(first.text)")
            #expect(try await Self.update(harness, #"{"status":"gone","eta":851452200,"stops":1}"#).status == .created)
            let entries = try await harness.database.pool.query(
                "SELECT activity_id, message, dispatch_id::text AS dispatch FROM message_activity_log WHERE type = $1",
                [ActivityLogType.contentStateMismatch.rawValue])
            #expect(entries.count == 1, "once per activity and hour")
            let entry = try #require(entries.first)
            #expect(try entry.require("activity_id", as: String.self) == "order-7")
            #expect(try entry.require("dispatch", as: String.self) == first.dispatchID)
            let message = try entry.require("message", as: String.self)
            #expect(message.contains("DeliveryTracking"), "\(message)")
            #expect(message.contains("$.content_state.status: expected one of"), "\(message)")

            let app = harness.tenant.app.identifier
            let activity = NIOLockedValueBox<JSONValue?>(nil)
            try await harness.api { client in
                let response = try await ActivityTypeRoutesTests.call(
                    client, .get, "/live_activity/activities/order-7?app_id=\(app)", key: harness.tenant.secret)
                #expect(response.status == .ok, "\(response.text)")
                activity.withLockedValue { $0 = try? response.json }
            }
            let resource = try #require(activity.withLockedValue { $0 })
            #expect(resource["attributes_types"] == .array([.string(DeliveryTracking.name)]))
            let mismatches = try #require(resource["payload_mismatches"]?.arrayValue)
            #expect(mismatches.count == 1)
            #expect(mismatches.first?["message"]?.stringValue == message)
            #expect(mismatches.first?["dispatch_id"]?.stringValue == first.dispatchID)
        }
    }

    @Test func aStartIsCheckedAgainstTheTypeItNames() async throws {
        try await DeliveryHarness.with { harness in
            try await Self.prepare(harness)
            let app = harness.tenant.app.identifier
            try await harness.api { client in
                let refused = try await client.post(
                    "/messages/live_activity/start",
                    #"{"app_id":"\#(app)","activity_id":"order-8","activity_attributes_type":"DeliveryTracking","activity_attributes":{"orderNumber":8},"content_state":{"status":"preparing","eta":"2026-12-24T18:30:00Z","stops":3},"notification":{"alert":{"title":"t","body":"b"}},"external_id":"u1"}"#,
                    key: harness.tenant.secret)
                #expect(refused.status == .badRequest)
                #expect(refused.errors.count == 1)
                #expect(refused.errors.first?.hasPrefix("$.activity_attributes.orderNumber: expected string, got number 8") == true)
                // Another type is not checked: the app registered none of that name.
                let other = try await client.post(
                    "/messages/live_activity/start",
                    #"{"app_id":"\#(app)","activity_id":"order-8","activity_attributes_type":"Other","activity_attributes":{"orderNumber":8},"content_state":{},"notification":{"alert":{"title":"t","body":"b"}},"external_id":"u1"}"#,
                    key: harness.tenant.secret)
                #expect(other.status == .created, "\(other.text)")
            }
            let payloads = try await harness.database.pool.query("SELECT payload FROM dispatches").map {
                try $0.require("payload", as: String.self)
            }
            #expect(payloads.count == 1)
        }
    }

    @Test func anActivityStartedAsATypeIsCheckedAsIt() async throws {
        try await DeliveryHarness.with { harness in
            _ = try await harness.startDeliveredToFan(activityID: "match-5")
            let app = harness.tenant.app.identifier
            let schema = #"{"type":"object","properties":{"score":{"type":"string"}},"required":["score"]}"#
            try await harness.api { client in
                let put = try await ActivityTypeRoutesTests.call(
                    client, .put, "/live_activity/types/MatchAttributes", #"{"app_id":"\#(app)","content_state":\#(schema)}"#,
                    key: harness.tenant.secret)
                #expect(put.status == .created, "\(put.text)")
                // The started activity reports its update token without naming its type: the start named it.
                let registered = try await client.post(
                    "/push_token_tag", #"{"app_id":"\#(app)","device_id":"phone-a","tag":"match-5","push_token":"\#(token(0x7c))"}"#,
                    key: nil)
                #expect(registered.status == .created, "\(registered.text)")
                let refused = try await client.post(
                    "/messages/live_activity/update", #"{"app_id":"\#(app)","activity_id":"match-5","content_state":{"score":1}}"#,
                    key: harness.tenant.secret)
                #expect(refused.status == .badRequest)
                #expect(refused.errors == ["$.content_state.score: expected string, got number 1"])
            }
            #expect(
                try await harness.database.count(
                    "SELECT count(*) FROM activity_tokens WHERE activity_id = 'match-5' AND attributes_type = 'MatchAttributes'") == 1)
        }
    }

    @Test func anotherGatewaySeesAChangedSchemaWithinItsCacheTime() async throws {
        try await DeliveryHarness.with { harness in
            try await Self.prepare(harness)
            let app = harness.tenant.app.identifier
            let secret = harness.tenant.secret
            let body = #"{"app_id":"\#(app)","activity_id":"order-7","content_state":{"status":"preparing","eta":0,"stops":"two"}}"#
            let configuration = GatewayConfiguration(lookupCacheTimeToLive: .seconds(1))
            let second = TestGateway.app(harness.database, configuration: configuration)
            try await second.test(.router) { secondClient async throws in
                #expect(try await secondClient.post("/messages/live_activity/update", body, key: secret).status == .badRequest)
                // The first gateway makes stops a string.
                let loosened = DeliveryTracking.registration(appID: app).replacingOccurrences(
                    of: #""stops":{"type":"integer"}"#, with: #""stops":{"type":"string"}"#)
                try await harness.api { client in
                    let put = try await ActivityTypeRoutesTests.call(
                        client, .put, "/live_activity/types/\(DeliveryTracking.name)", loosened, key: secret)
                    #expect(put.status == .ok, "\(put.text)")
                }
                let deadline = ContinuousClock.now + .seconds(10)
                var status = HTTPResponse.Status.badRequest
                while status != .created, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(200))
                    status = try await secondClient.post("/messages/live_activity/update", body, key: secret).status
                }
                #expect(status == .created, "the second gateway applies the new schema once its cache expires")
            }
        }
    }
}

extension ISO8601DateFormatter {
    static var withMilliseconds: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
