import APNsClient
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

@Suite("Delivery: from the API to the APNs simulator", .requiresPostgres)
struct DeliveryEngineTests {
    @Test func anUpdateReachesEveryDeviceWithExactHeadersAndPayload() async throws {
        try await DeliveryHarness.with { harness in
            let devices = [token(0x0a), token(0x0b), token(0x0c)]
            for (index, device) in devices.enumerated() { try await harness.register(device, device: "iphone-\(index)") }
            try await harness.register(token(0x0d), device: "iphone-other", tag: "another-game")
            let id = try await harness.update(#""content_state":{"home":1,"away":0,"minute":42}"#)

            #expect(try await harness.engine.deliverDue() == 1)

            let received = harness.simulator.received
            #expect(Set(received.map(\.deviceToken)) == Set(devices))
            #expect(received.count == 3)
            let row = try await harness.dispatch(id)
            let payload = Array(try row.require("payload", as: String.self).utf8)
            let expiration = try row.require("expires_epoch", as: Int64.self)
            for push in received {
                #expect(push.payload == payload)
                #expect(push.headers["apns-push-type"] == "liveactivity")
                #expect(push.headers["apns-topic"] == "\(APNsSimulatorTests.bundleID).push-type.liveactivity")
                #expect(push.headers["apns-priority"] == "10")
                #expect(push.headers["apns-expiration"] == String(expiration))
                #expect(push.headers["authorization"]?.hasPrefix("bearer ey") == true)
                #expect(UUID(uuidString: push.headers["apns-id"] ?? "") != nil)
                #expect(push.headers["accept"] == nil, "libcurl's default accept header is left off")
            }
            #expect(Set(received.compactMap { $0.headers["apns-id"] }).count == 3, "one apns-id per push")
            let aps = try #require(try JSONValue.parse(payload)["aps"])
            #expect(aps["event"]?.stringValue == "update")
            try expectJSON(try #require(aps["content-state"]), equals: #"{"home":1,"away":0,"minute":42}"#)
            #expect(try row.require("status", as: String.self) == "done")
            #expect(try row.require("sent_count", as: Int.self) == 3)
            #expect(try row.require("failed_count", as: Int.self) == 0)
            #expect(try await harness.log().isEmpty)
        }
    }

    @Test func anExternalIDNarrowsTheFanOutToThatUsersDevices() async throws {
        try await DeliveryHarness.with { harness in
            try await harness.register(token(0x1a), device: "phone-a", externalID: "fan-7")
            try await harness.register(token(0x1b), device: "phone-b", externalID: "fan-8")
            try await harness.register(token(0x1c), device: "phone-c")
            try await harness.update(#""content_state":{"n":1},"external_id":"fan-7""#)
            try await harness.engine.deliverDue()
            #expect(harness.simulator.received.map(\.deviceToken) == [token(0x1a)])
        }
    }

    @Test func aFanOutLargerThanAPageReachesEveryDevice() async throws {
        var settings = DeliveryHarness.testSettings
        settings.pageSize = 7
        try await DeliveryHarness.with(settings: settings) { harness in
            let devices = (0..<30).map { token(numbered: $0) }
            for (index, device) in devices.enumerated() { try await harness.register(device, device: "d\(index)") }
            let id = try await harness.update(#""content_state":{"n":2}"#)
            try await harness.engine.deliverDue()
            #expect(harness.simulator.received.map(\.deviceToken).sorted() == devices.sorted())
            let row = try await harness.dispatch(id)
            #expect(try row.require("sent_count", as: Int.self) == 30)
            #expect(try row.require("status", as: String.self) == "done")
            // The last page is recorded with the end, in the same transaction, as every page before it.
            let tokens = try await harness.database.pool.query(
                """
                SELECT max(id) AS last, count(*) FILTER (WHERE last_apns_status = 200 AND last_dispatch_id = $1)::int AS answered
                FROM activity_tokens
                """, [id])[0]
            #expect(try row.require("fanout_cursor", as: Int64.self) == tokens.require("last", as: Int64.self))
            #expect(try tokens.require("answered", as: Int.self) == 30, "every device's answer is kept, the last page's too")
        }
    }

    @Test func anEndRetiresTheActivitysTokens() async throws {
        try await DeliveryHarness.with { harness in
            try await harness.register(token(0x2a), device: "phone-a")
            try await harness.register(token(0x2b), device: "phone-b")
            try await harness.register(token(0x2c), device: "phone-c", tag: "still-running")
            let id = try await harness.update(#""content_state":{"final":true},"end_activity":true"#)
            try await harness.engine.deliverDue()

            let received = harness.simulator.received
            #expect(Set(received.map(\.deviceToken)) == [token(0x2a), token(0x2b)])
            for push in received {
                #expect(try JSONValue.parse(push.payload)["aps"]?["event"]?.stringValue == "end")
            }
            #expect(try await harness.tokens().isEmpty, "the ended activity's tokens are retired")
            #expect(try await harness.tokens(tag: "still-running") == [token(0x2c)])
            #expect(try await harness.dispatch(id).require("status", as: String.self) == "done")
        }
    }

    @Test func anUnregisteredTokenIsRemovedAndLogged() async throws {
        try await DeliveryHarness.with { harness in
            let gone = token(0x3a)
            harness.simulator.setBehavior(.unregistered, for: gone)
            try await harness.register(gone, device: "old-phone", externalID: "fan-9")
            try await harness.register(token(0x3b), device: "new-phone")
            let id = try await harness.update(#""content_state":{"n":3}"#)
            try await harness.engine.deliverDue()

            #expect(harness.simulator.received.map(\.deviceToken) == [token(0x3b)])
            #expect(try await harness.tokens() == [token(0x3b)], "the dead token is removed")
            let row = try await harness.dispatch(id)
            #expect(try row.require("sent_count", as: Int.self) == 1)
            #expect(try row.require("removed_count", as: Int.self) == 1)
            #expect(try row.require("failed_count", as: Int.self) == 1)
            let log = try await harness.log()
            #expect(log.count == 1)
            let entry = try #require(log.first)
            #expect(try entry.require("type", as: String.self) == "APNS Feedback Removed Token errors")
            #expect(try entry.require("apns_status", as: Int.self) == 410)
            #expect(try entry.require("apns_reason", as: String.self) == "Unregistered")
            #expect(try entry.require("masked_token", as: String.self) == String(gone.suffix(8)))
            #expect(try entry.require("dispatch_id", as: String.self) == id.lowercased())
            #expect(try entry.require("activity_id", as: String.self) == "game-42")
            #expect(try entry.require("external_id", as: String.self) == "fan-9")
            #expect(try entry.require("workspace_id", as: UUID.self) == harness.tenant.workspace.id)
            #expect(try entry.require("app_id", as: UUID.self) == harness.tenant.app.id)
            #expect(try entry.require("message", as: String.self).contains("removed"))
            #expect(try entry.decode("apns_id", as: String.self) != nil)
        }
    }

    @Test func aBadDeviceTokenIsRemovedToo() async throws {
        try await DeliveryHarness.with { harness in
            harness.simulator.setBehavior(.fail(status: 400, reason: "BadDeviceToken"), for: token(0x3c))
            try await harness.register(token(0x3c), device: "phone")
            try await harness.update(#""content_state":{"n":3}"#)
            try await harness.engine.deliverDue()
            #expect(try await harness.tokens().isEmpty)
            #expect(try await harness.log().map { try $0.require("apns_reason", as: String.self) } == ["BadDeviceToken"])
        }
    }

    @Test func aServerErrorIsRetriedAndDeliveredOnce() async throws {
        try await DeliveryHarness.with { harness in
            let flaky = token(0x4a)
            harness.simulator.setBehavior(.failFirst(times: 1, status: 500, reason: "InternalServerError"), for: flaky)
            harness.simulator.setBehavior(.failFirst(times: 2, status: 429, reason: "TooManyRequests"), for: token(0x4b))
            try await harness.register(flaky, device: "phone-a")
            try await harness.register(token(0x4b), device: "phone-b")
            let id = try await harness.update(#""content_state":{"n":4}"#)
            try await harness.engine.deliverDue()

            #expect(harness.simulator.received.map(\.deviceToken).sorted() == [flaky, token(0x4b)])
            #expect(harness.simulator.rejections["InternalServerError"] == 1)
            #expect(harness.simulator.rejections["TooManyRequests"] == 2)
            let row = try await harness.dispatch(id)
            #expect(try row.require("sent_count", as: Int.self) == 2)
            #expect(try row.require("retried_count", as: Int.self) == 3)
            #expect(try row.require("failed_count", as: Int.self) == 0)
            // The 429s were APNs throttling one device: said once, the 500 not at all.
            let log = try await harness.log()
            #expect(log.count == 1)
            #expect(try log.first?.decode("masked_token", as: String.self) == String(token(0x4b).suffix(8)))
            #expect(try log.first?.decode("apns_reason", as: String.self) == "TooManyRequests")
        }
    }

    @Test func aPushThatKeepsFailingIsGivenUpAndLogged() async throws {
        try await DeliveryHarness.with { harness in
            harness.simulator.setBehavior(.fail(status: 503, reason: "ServiceUnavailable"), for: token(0x4c))
            try await harness.register(token(0x4c), device: "phone-a")
            try await harness.register(token(0x4d), device: "phone-b")
            let id = try await harness.update(#""content_state":{"n":5}"#)
            try await harness.engine.deliverDue()

            #expect(harness.simulator.rejections["ServiceUnavailable"] == 4, "four tries in all")
            let row = try await harness.dispatch(id)
            #expect(try row.require("status", as: String.self) == "done")
            #expect(try row.require("failed_count", as: Int.self) == 1)
            #expect(try row.require("retried_count", as: Int.self) == 3)
            let entry = try #require(try await harness.log().first)
            #expect(try entry.require("type", as: String.self) == "Other Live Activity errors")
            #expect(try entry.require("apns_status", as: Int.self) == 503)
            #expect(try entry.require("message", as: String.self).contains("after 4 tries"))
        }
    }

    @Test func anExpiredProviderTokenIsRenewed() async throws {
        // The cache's clock says a token made 61 minutes ago is only 12 minutes old: APNs disagrees.
        let clock = NIOLockedValueBox(Date().addingTimeInterval(-61 * 60))
        let tokens = ProviderTokenCache(now: { clock.withLockedValue { $0 } })
        try await DeliveryHarness.with(tokens: tokens) { harness in
            _ = try tokens.token(for: try #require(harness.tenant.app.credentials))
            clock.withLockedValue { $0 = $0.addingTimeInterval(49 * 60) }
            try await harness.register(token(0x5a), device: "phone")
            try await harness.update(#""content_state":{"n":6}"#)
            try await harness.engine.deliverDue()
            #expect(harness.simulator.rejections["ExpiredProviderToken"] == 1)
            #expect(harness.simulator.received.map(\.deviceToken) == [token(0x5a)])
            #expect(try await harness.log().isEmpty)
        }
    }

    @Test func aRejectedCredentialStopsTheDispatchWithOneEntry() async throws {
        let stranger = try await TestKeyPair.make()
        defer { stranger.remove() }
        try await DeliveryHarness.with { harness in
            try await harness.database.pool.query(
                "UPDATE apps SET apns_private_key = $1 WHERE id = $2", [stranger.privatePEM, harness.tenant.app.id])
            for index in 0..<5 { try await harness.register(token(numbered: index), device: "d\(index)") }
            let id = try await harness.update(#""content_state":{"n":7}"#)
            try await harness.engine.deliverDue()
            #expect(harness.simulator.received.isEmpty)
            #expect(try await harness.dispatch(id).require("status", as: String.self) == "failed")
            let log = try await harness.log()
            #expect(log.count == 1)
            #expect(try log[0].require("type", as: String.self) == "Live Activity error (Invalid push credential)")
            #expect(try log[0].require("apns_reason", as: String.self) == "InvalidProviderToken")
        }
    }

    @Test func anAppWithoutCredentialsIsLoggedAndNothingIsSent() async throws {
        try await DeliveryHarness.with(credentials: false) { harness in
            try await harness.register(token(0x6a), device: "phone-a")
            try await harness.register(token(0x6b), device: "phone-b")
            let id = try await harness.update(#""content_state":{"n":8}"#)
            try await harness.engine.deliverDue()
            #expect(harness.simulator.received.isEmpty)
            #expect(harness.simulator.rejections.isEmpty, "nothing reached APNs")
            #expect(try await harness.dispatch(id).require("status", as: String.self) == "failed")
            let log = try await harness.log()
            #expect(log.count == 1)
            #expect(try log[0].require("type", as: String.self) == "Live Activity error (No push credential)")
            #expect(try log[0].require("message", as: String.self).contains("2 devices"))
            #expect(try log[0].require("dispatch_id", as: String.self) == id.lowercased())
        }
    }

    @Test func anUpdateWithNoRegisteredDeviceIsLogged() async throws {
        try await DeliveryHarness.with { harness in
            let id = try await harness.update(#""content_state":{"n":9}"#, activityID: "nobody-follows")
            try await harness.engine.deliverDue()
            #expect(try await harness.dispatch(id).require("status", as: String.self) == "done")
            let log = try await harness.log()
            #expect(log.count == 1)
            #expect(try log[0].require("type", as: String.self) == "Other Live Activity errors")
            #expect(try log[0].require("message", as: String.self).contains("nobody-follows"))
        }
    }

    @Test func aStartReachesTheUsersPushToStartTokens() async throws {
        try await DeliveryHarness.with { harness in
            try await harness.database.registerPushToStart(
                harness.tenant, type: "MatchAttributes", device: "phone-b", token: token(0x7b), externalID: "fan-2")
            let aps = try await harness.startDeliveredToFan(activityID: "match-9")
            #expect(aps["event"]?.stringValue == "start")
            #expect(aps["attributes"]?["brazeActivityId"]?.stringValue == "match-9")
        }
    }

    @Test func theLogKeepsAHundredEntriesPerTypePerHourAndCountsTheRest() async throws {
        try await DeliveryHarness.with { harness in
            let devices = (0..<150).map { token(numbered: $0) }
            for (index, device) in devices.enumerated() {
                harness.simulator.setBehavior(.fail(status: 400, reason: "DeviceTokenNotForTopic"), for: device)
                try await harness.register(device, device: "d\(index)")
            }
            try await harness.update(#""content_state":{"n":10}"#)
            try await harness.engine.deliverDue()
            #expect(try await harness.log().count == 100)
            let hours = try await harness.database.pool.query(
                "SELECT type, total, hour = date_trunc('hour', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS this_hour FROM message_activity_log_hours"
            )
            #expect(hours.count == 1)
            #expect(try hours[0].require("total", as: Int.self) == 150)
            #expect(try hours[0].require("this_hour", as: Bool.self))
            #expect(try hours[0].require("type", as: String.self) == "Other Live Activity errors")
        }
    }

    @Test func unreachableAPNsHandsTheDispatchBackThenGivesUpWithALogEntry() async throws {
        let closed = APNsEndpoint(rawValue: "https://127.0.0.1:\(LiveGateBinary.freePort())")!
        try await DeliveryHarness.with(endpoint: closed) { harness in
            try await harness.register(token(0x8a), device: "phone")
            let id = try await harness.update(#""content_state":{"n":11}"#)
            try await harness.engine.deliverDue()
            var row = try await harness.dispatch(id)
            #expect(try row.require("status", as: String.self) == "pending", "handed back, not dropped")
            #expect(try row.require("waiting", as: Bool.self), "with a backoff")
            #expect(try row.require("retried_count", as: Int.self) == 3)
            #expect(try row.require("fanout_cursor", as: Int64.self) == 0, "the page is sent again next time")
            #expect(try await harness.log().isEmpty)

            // The last attempt the policy allows: due now, and it fails too.
            try await harness.database.pool.query("UPDATE dispatches SET next_attempt_at = now(), attempts = 2")
            try await harness.engine.deliverDue()
            row = try await harness.dispatch(id)
            #expect(try row.require("status", as: String.self) == "failed")
            #expect(try row.require("failed_count", as: Int.self) == 1)
            let messages = try await harness.log().map { try $0.require("message", as: String.self) }
            #expect(messages.contains { $0.contains("could not be reached") })
            #expect(messages.contains { $0.hasPrefix("Delivery stopped after 3 attempts") })
        }
    }
}
