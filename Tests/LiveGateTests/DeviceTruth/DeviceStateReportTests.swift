import Foundation
import HTTPTypes
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

extension TestClientProtocol {
    /// Reports an activity's state on a device, as the SDK does.
    func reportState(
        _ tenant: Tenant, device: String, activity: String = "game-42", state: String, extra: String = ""
    ) async throws -> TestResponse {
        let body =
            #"{"app_id":"\#(tenant.app.identifier)","device_id":"\#(device)","activity_id":"\#(activity)","state":"\#(state)"\#(extra)}"#
        return try await post("/live_activity/device_state", body, key: nil)
    }
}

extension TestDatabase {
    /// The stored state of `device` for `activity`, nil when none.
    func deviceState(_ tenant: Tenant, device: String, activity: String = "game-42") async throws -> (state: String, channel: String?)? {
        try await pool.query(
            "SELECT state, channel_id FROM activity_device_states WHERE app_id = $1 AND activity_id = $2 AND device_id = $3",
            [tenant.app.id, activity, device]
        ).first.map { (try $0.require("state"), try $0.decode("channel_id")) }
    }
}

@Suite("POST /live_activity/device_state: what the app reports", .requiresPostgres)
struct DeviceStateReportTests {
    @Test func aReportIsStoredWithItsChannelAndAnsweredLikeATokenRegistration() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                let response = try await client.reportState(
                    tenant, device: "iphone-1", state: "active",
                    extra: #","channel_id":"dHN0LXNyY2gtY2hubA==","reported_at":"2026-11-25T12:00:00.250Z""#)
                #expect(response.status == .created)
                #expect(response.text == #"{"message":"success"}"#)
            }
            let stored = try #require(try await database.deviceState(tenant, device: "iphone-1"))
            #expect(stored.state == "active")
            #expect(stored.channel == "dHN0LXNyY2gtY2hubA==")
            let reportedAt: Date = try await database.pool.query(
                "SELECT reported_at FROM activity_device_states WHERE device_id = 'iphone-1'")[0].require("reported_at")
            #expect(reportedAt == Date(timeIntervalSince1970: 1_795_608_000.25))
        }
    }

    /// ISO 8601's year 0 is valid JSON input; PostgreSQL has no year 0, so it is kept as year 1.
    @Test func aReportFromYearZeroIsStoredAsTheEarliestInstant() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                let response = try await client.reportState(
                    tenant, device: "iphone-1", state: "active", extra: #","reported_at":"0000-01-01T00:00:00Z""#)
                #expect(response.status == .created, "\(response.text)")
            }
            let reportedAt: Date = try await database.pool.query(
                "SELECT reported_at FROM activity_device_states WHERE device_id = 'iphone-1'")[0].require("reported_at")
            #expect(reportedAt == PostgresTimestamp.earliest)
        }
    }

    @Test func anOlderReportArrivingLateChangesNothing() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await database.registerToken(tenant, tag: "game-42", device: "iphone-1", token: token(0x11))
            try await TestGateway.app(database).test(.router) { client async throws in
                let newer = try await client.reportState(
                    tenant, device: "iphone-1", state: "active", extra: #","reported_at":"2026-11-25T12:00:05Z""#)
                #expect(newer.status == .created)
                // Dismissed before it was shown again: sent first, arrived last. Still answered 201.
                let older = try await client.reportState(
                    tenant, device: "iphone-1", state: "dismissed", extra: #","reported_at":"2026-11-25T12:00:01Z""#)
                #expect(older.status == .created)
            }
            #expect(try await database.deviceState(tenant, device: "iphone-1")?.state == "active")
            let tokens = try await database.pool.query("SELECT device_id FROM activity_tokens WHERE app_id = $1", [tenant.app.id])
            #expect(tokens.count == 1, "the older dismissal must not retire the token")
        }
    }

    @Test func theSameReportTwiceIsOneRowAndAtOneInstantTheFurtherStateWins() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                let at = #","reported_at":"2026-11-25T12:00:00Z""#
                for state in ["ended", "ended", "active", "stale"] {
                    #expect(try await client.reportState(tenant, device: "iphone-1", state: state, extra: at).status == .created)
                }
            }
            let rows = try await database.pool.query("SELECT state FROM activity_device_states")
            #expect(try rows.map { try $0.require("state", as: String.self) } == ["ended"])
        }
    }

    @Test func aDeviceClockAheadOfTheServersCountsAsNow() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                // A clock a year ahead would otherwise pin this state against every later report.
                _ = try await client.reportState(
                    tenant, device: "iphone-1", state: "stale", extra: #","reported_at":"2099-01-01T00:00:00Z""#)
                _ = try await client.reportState(tenant, device: "iphone-1", state: "ended")
            }
            #expect(try await database.deviceState(tenant, device: "iphone-1")?.state == "ended")
        }
    }

    @Test func badFieldsAreRefusedWithWhatIsWrong() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                let unknownState = try await client.reportState(tenant, device: "iphone-1", state: "paused")
                #expect(unknownState.status == .badRequest)
                #expect(
                    unknownState.text.contains("state must be one of active, stale, ended, dismissed, got 'paused'"), "\(unknownState.text)"
                )

                let badTime = try await client.reportState(
                    tenant, device: "iphone-1", state: "active", extra: #","reported_at":"yesterday""#)
                #expect(badTime.status == .badRequest)
                #expect(badTime.text.contains("reported_at must be an ISO-8601 date-time"), "\(badTime.text)")

                let missing = try await client.post(
                    "/live_activity/device_state", #"{"app_id":"\#(tenant.app.identifier)","state":"active"}"#, key: nil)
                #expect(missing.status == .badRequest)
                #expect(missing.text.contains("device_id is required"), "\(missing.text)")
                #expect(missing.text.contains("activity_id is required"), "\(missing.text)")

                let unknownApp = try await client.post(
                    "/live_activity/device_state",
                    #"{"app_id":"no-such-app","device_id":"d","activity_id":"a","state":"active"}"#, key: nil)
                #expect(unknownApp.status == .badRequest)
                #expect(unknownApp.text == #"{"errors":["no app has app_id 'no-such-app'"],"message":"Unknown app_id"}"#)
            }
            #expect(try await database.pool.query("SELECT 1 FROM activity_device_states").isEmpty)
        }
    }

    @Test func aReportOnlyTouchesItsOwnApp() async throws {
        try await TestDatabase.with { database in
            let ours = try await database.makeTenant()
            let theirs = try await database.makeTenant()
            try await database.registerToken(theirs, tag: "game-42", device: "iphone-1", token: token(0x12))
            try await TestGateway.app(database).test(.router) { client async throws in
                #expect(try await client.reportState(ours, device: "iphone-1", state: "dismissed").status == .created)
            }
            #expect(try await database.deviceState(theirs, device: "iphone-1") == nil)
            let theirTokens = try await database.pool.query("SELECT 1 FROM activity_tokens WHERE app_id = $1", [theirs.app.id])
            #expect(theirTokens.count == 1)
        }
    }
}
