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

extension TestClientProtocol {
    func activity(_ activityID: String, app: String, key: String, query: String = "") async throws -> TestResponse {
        try await execute(
            uri: "/live_activity/activities/\(activityID)?app_id=\(app)\(query)", method: .get, headers: .bearer(key), body: nil)
    }
}

extension DeliveryHarness {
    /// `GET /live_activity/activities/{activity}` with the tenant's key (every permission), as JSON.
    func activityResource(_ activity: String = "game-42", query: String = "") async throws -> JSONValue {
        let body = NIOLockedValueBox<JSONValue?>(nil)
        try await api { client async throws in
            let response = try await client.activity(activity, app: tenant.app.identifier, key: tenant.secret, query: query)
            #expect(response.status == .ok, "\(response.text)")
            body.withLockedValue { $0 = try? response.json }
        }
        return try #require(body.withLockedValue { $0 })
    }
}

@Suite("GET /live_activity/activities/{activity_id}: which devices show an activity, and why", .requiresPostgres)
struct ActivityResourceTests {
    @Test func anActivityShowsItsDevicesTheirLastPushesStatesChannelAndDispatches() async throws {
        try await DeliveryHarness.with { harness in
            let channel = try await harness.makeChannel()
            try await harness.register(token(0x41), device: "member", externalID: "fan-1")
            try await harness.register(token(0x42), device: "plain")
            try await harness.register(token(0x43), device: "gone")
            try await harness.report("active", device: "member", extra: #","channel_id":"\#(channel.rawValue)""#)
            try await harness.report("dismissed", device: "gone", extra: #","reported_at":"2026-11-25T08:00:00Z""#)
            let id = try await harness.update(#""content_state":{"score":"1-0"}"#)
            try await harness.engine.deliverDue()

            let json = try await harness.activityResource()
            #expect(json["activity_id"]?.stringValue == "game-42")
            #expect(json["app_id"]?.stringValue == harness.tenant.app.identifier)
            let counts = try #require(json["counts"])
            #expect(counts["devices"] == .integer(3))
            #expect(counts["with_token"] == .integer(2))
            #expect(counts["active"] == .integer(1))
            #expect(counts["dismissed"] == .integer(1))
            #expect(counts["stale"] == .integer(0))
            #expect(counts["unreported"] == .integer(1))
            #expect(counts["channel_members"] == .integer(1))
            #expect(json["channel"]?["channel_id"]?.stringValue == channel.rawValue)
            #expect(json["channel"]?["state"]?.stringValue == "live")
            #expect(json["next_cursor"] == .null)

            let devices = try #require(json["devices"]?.arrayValue)
            #expect(devices.compactMap { $0["device_id"]?.stringValue } == ["gone", "member", "plain"])
            let gone = devices[0]
            #expect(gone["token"] == .null)
            #expect(gone["state"]?.stringValue == "dismissed")
            #expect(gone["state_reported_at"]?.stringValue == "2026-11-25T08:00:00.000Z")
            #expect(gone["last_push"] == .null)
            let member = devices[1]
            #expect(member["token"]?.stringValue == String(token(0x41).suffix(8)))
            #expect(member["external_id"]?.stringValue == "fan-1")
            #expect(member["channel_member"] == .bool(true))
            #expect(member["last_push"] == .null, "the broadcast reached it; no token push was sent")
            let plain = devices[2]
            #expect(plain["state"] == .null)
            #expect(plain["channel_member"] == .bool(false))
            #expect(plain["last_push"]?["dispatch_id"]?.stringValue == id)
            #expect(plain["last_push"]?["apns_status"] == .integer(200))
            #expect(plain["registered_at"]?.stringValue != nil)
            #expect(plain["rotated_at"] == .null)

            let dispatches = try #require(json["dispatches"]?.arrayValue)
            #expect(dispatches.map { $0["dispatch_id"]?.stringValue } == [id])
            #expect(dispatches.first?["status"]?.stringValue == "done")
            #expect(dispatches.first?["href"]?.stringValue == "/messages/live_activity/dispatches/\(id)")
            #expect(dispatches.first?["devices"]?["sent"] == .integer(1))
        }
    }

    @Test func aRefusedPushShowsAsTheDevicesLastPush() async throws {
        try await DeliveryHarness.with { harness in
            try await harness.register(token(0x44), device: "phone")
            harness.simulator.setBehavior(.fail(status: 400, reason: "BadPriority"), for: token(0x44))
            try await harness.update(#""content_state":{"n":1}"#)
            try await harness.engine.deliverDue()
            let device = try #require(try await harness.activityResource()["devices"]?.arrayValue?.first)
            #expect(device["last_push"]?["apns_status"] == .integer(400))
        }
    }

    @Test func devicesComePagedByCursorEachOnceWhetherTheyHaveATokenAReportOrBoth() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await database.insertActivityTokens((1...150).map { token(numbered: $0) }, app: tenant.app, activityID: "ride-1")
            // Reports for some with a token (device-1 … device-99 sort among them) and some without.
            try await database.pool.query(
                """
                INSERT INTO activity_device_states (app_id, activity_id, device_id, state, reported_at)
                SELECT $1, 'ride-1', d, 'ended', now()
                FROM unnest(ARRAY['device-7', 'device-70', 'no-token-a', 'no-token-b', 'a-first']) AS d
                """, [tenant.app.id])
            try await TestGateway.app(database).test(.router) { client async throws in
                var seen: [String] = []
                var cursor: String?
                var pages = 0
                repeat {
                    let response = try await client.activity(
                        "ride-1", app: tenant.app.identifier, key: tenant.secret,
                        query: "&limit=40" + (cursor.map { "&cursor=\($0)" } ?? ""))
                    #expect(response.status == .ok, "\(response.text)")
                    let json = try response.json
                    seen += try #require(json["devices"]?.arrayValue).compactMap { $0["device_id"]?.stringValue }
                    #expect(json["counts"]?["devices"] == .integer(153))
                    cursor = json["next_cursor"]?.stringValue
                    pages += 1
                } while cursor != nil && pages < 10
                #expect(pages == 4)
                #expect(seen.count == 153)
                #expect(Set(seen).count == 153)
                #expect(seen.first == "a-first")
            }
        }
    }

    @Test func anotherWorkspacesAppIsRefusedAndReadingTakesItsOwnPermission() async throws {
        try await TestDatabase.with { database in
            let ours = try await database.makeTenant()
            let theirs = try await database.makeTenant()
            try await database.registerToken(theirs, tag: "game-42", device: "iphone-1", token: token(0x51))
            let (_, logReader) = try await database.makeKey(in: ours.workspace, permissions: [.messageActivityLogRead])
            try await TestGateway.app(database).test(.router) { client async throws in
                let foreign = try await client.activity("game-42", app: theirs.app.identifier, key: ours.secret)
                #expect(foreign.status == .badRequest)
                #expect(foreign.text.contains("is not an app of this workspace"), "\(foreign.text)")
                #expect(!foreign.text.contains("iphone-1"))

                let unpermitted = try await client.activity("game-42", app: ours.app.identifier, key: logReader)
                #expect(unpermitted.status == .forbidden)

                let unknown = try await client.activity("never-used", app: ours.app.identifier, key: ours.secret)
                #expect(unknown.status == .ok)
                #expect(try unknown.json["counts"]?["devices"] == .integer(0))

                let badCursor = try await client.activity("game-42", app: ours.app.identifier, key: ours.secret, query: "&cursor=%21%21")
                #expect(badCursor.status == .badRequest)
            }
        }
    }

    @Test func anActivityIdWithSpacesOrSlashesIsReadPercentEncoded() async throws {
        try await DeliveryHarness.with { harness in
            try await harness.register(token(0x45), device: "phone", tag: "order 42/ß")
            let json = try await harness.activityResource("order%2042%2F%C3%9F")
            #expect(json["activity_id"]?.stringValue == "order 42/ß")
            #expect(json["counts"]?["with_token"] == .integer(1))
        }
    }

    @Test func aNewTokenStartsWithNoLastPush() async throws {
        try await DeliveryHarness.with { harness in
            try await harness.register(token(0x46), device: "phone")
            try await harness.update(#""content_state":{"n":1}"#)
            try await harness.engine.deliverDue()
            #expect(try await harness.activityResource()["devices"]?.arrayValue?.first?["last_push"] != .null)
            try await harness.register(token(0x46), device: "phone")  // the same token again keeps it
            #expect(try await harness.activityResource()["devices"]?.arrayValue?.first?["last_push"] != .null)
            try await harness.register(token(0x47), device: "phone")
            let device = try #require(try await harness.activityResource()["devices"]?.arrayValue?.first)
            #expect(device["last_push"] == .null)
            #expect(device["rotated_at"] != .null)
        }
    }

    @Test func aStartsResourceShowsItsConfirmations() async throws {
        try await DeliveryHarness.with { harness in
            _ = try await harness.startDeliveredToFan(activityID: "match-7")
            try await harness.register(token(0x7b), device: "phone-a", tag: "match-7")
            let json = try await harness.activityResource("match-7")
            let start = try #require(json["dispatches"]?.arrayValue?.first)
            #expect(start["event"]?.stringValue == "start")
            let confirmation = try #require(start["confirmation"])
            #expect(confirmation["sent"] == .integer(1))
            #expect(confirmation["confirmed"] == .integer(1))
            #expect(confirmation["unconfirmed"] == .integer(0))
            let median = try #require(confirmation["median_seconds_to_confirm"]?.doubleValue)
            #expect(median >= 0 && median < 60)
            // The started activity's device, by its update token.
            #expect(json["devices"]?.arrayValue?.compactMap { $0["device_id"]?.stringValue } == ["phone-a"])
        }
    }
}
