import APNsCore
import Foundation
import HTTPTypes
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

extension TestDatabase {
    /// The stored `frequent_pushes_enabled` of `device` for `activity`: nil when there is no row, `.some(nil)`
    /// when the row has none.
    func frequentPushes(_ tenant: Tenant, device: String, activity: String = "game-42") async throws -> Bool?? {
        try await pool.query(
            """
            SELECT frequent_pushes_enabled FROM activity_device_states
            WHERE app_id = $1 AND activity_id = $2 AND device_id = $3
            """,
            [tenant.app.id, activity, device]
        ).first.map { try $0.decode("frequent_pushes_enabled", as: Bool.self) }
    }
}

/// `frequent_pushes_enabled`: whether the device's user allows the app more frequent Live Activity updates,
/// reported beside a state and ordered by the device's clock on its own.
@Suite("POST /live_activity/device_state: whether the device allows frequent updates", .requiresPostgres)
struct FrequentPushesTests {
    static func at(_ time: String, _ enabled: Bool? = nil) -> String {
        #","reported_at":"2026-11-25T\#(time)Z""# + (enabled.map { #","frequent_pushes_enabled":\#($0)"# } ?? "")
    }

    @Test func aLaterReportReplacesTheValueAndTheResourceShowsIt() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await database.registerToken(tenant, tag: "game-42", device: "never-said", token: token(0x31))
            try await TestGateway.app(database).test(.router) { client async throws in
                let first = try await client.reportState(tenant, device: "iphone-1", state: "active", extra: Self.at("12:00:01", true))
                #expect(first.status == .created, "\(first.text)")
                #expect(try await database.frequentPushes(tenant, device: "iphone-1") == .some(true))
                let second = try await client.reportState(tenant, device: "iphone-1", state: "active", extra: Self.at("12:00:02", false))
                #expect(second.status == .created)
                #expect(second.text == #"{"message":"success"}"#)
                #expect(try await database.frequentPushes(tenant, device: "iphone-1") == .some(false))
                // Reported without arriving times: the later arrival is the later report.
                _ = try await client.reportState(tenant, device: "iphone-2", state: "active", extra: #","frequent_pushes_enabled":true"#)
                _ = try await client.reportState(tenant, device: "iphone-2", state: "stale", extra: #","frequent_pushes_enabled":false"#)
                _ = try await client.reportState(tenant, device: "iphone-3", state: "active", extra: #","frequent_pushes_enabled":true"#)

                let response = try await client.activity("game-42", app: tenant.app.identifier, key: tenant.secret)
                #expect(response.status == .ok, "\(response.text)")
                let devices = try #require(try response.json["devices"]?.arrayValue)
                let shown = Dictionary(
                    uniqueKeysWithValues: devices.compactMap { device in
                        device["device_id"]?.stringValue.map { ($0, device["frequent_pushes_enabled"]) }
                    })
                #expect(shown["iphone-1"] == .bool(false))
                #expect(shown["iphone-2"] == .bool(false))
                #expect(shown["iphone-3"] == .bool(true))
                #expect(shown["never-said"] == .null, "a device with a token and no report: null, not left out")
            }
        }
    }

    @Test func anOlderReportArrivingLateDoesNotReplaceANewerValue() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                #expect(
                    try await client.reportState(tenant, device: "iphone-1", state: "active", extra: Self.at("12:00:05", false)).status
                        == .created)
                // Sent first, arrived last; its state is older too.
                let late = try await client.reportState(tenant, device: "iphone-1", state: "stale", extra: Self.at("12:00:01", true))
                #expect(late.status == .created)
                #expect(try await database.frequentPushes(tenant, device: "iphone-1") == .some(false))
                #expect(try await database.deviceState(tenant, device: "iphone-1")?.state == "active")
            }
        }
    }

    /// The value has its own time: a report with a newer state and no value does not make an older
    /// value's report older than it was.
    @Test func eachIsOrderedOnItsOwnByTheTimeOfTheReportThatCarriedIt() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await database.registerToken(tenant, tag: "game-42", device: "iphone-1", token: token(0x32))
            try await TestGateway.app(database).test(.router) { client async throws in
                for (state, extra) in [
                    ("active", Self.at("12:00:10", true)),
                    ("stale", Self.at("12:00:20")),
                    // Its state is older than the row's and changes nothing; its value is newer than the row's.
                    ("dismissed", Self.at("12:00:15", false)),
                    // Older than the value now stored.
                    ("active", Self.at("12:00:12", true)),
                ] {
                    #expect(try await client.reportState(tenant, device: "iphone-1", state: state, extra: extra).status == .created)
                }
            }
            #expect(try await database.frequentPushes(tenant, device: "iphone-1") == .some(false))
            #expect(try await database.deviceState(tenant, device: "iphone-1")?.state == "stale")
            let tokens = try await database.pool.query("SELECT 1 FROM activity_tokens WHERE app_id = $1", [tenant.app.id])
            #expect(tokens.count == 1, "the older dismissal must not retire the token")
            let reportedAt: Date = try await database.pool.query(
                "SELECT reported_at FROM activity_device_states WHERE device_id = 'iphone-1'")[0].require("reported_at")
            #expect(reportedAt == Date(timeIntervalSince1970: 1_795_608_020), "the state's time is the stale report's")
        }
    }

    @Test func aReportWithoutTheValueKeepsIt() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                _ = try await client.reportState(tenant, device: "iphone-1", state: "active", extra: Self.at("12:00:01", true))
                _ = try await client.reportState(tenant, device: "iphone-1", state: "stale", extra: Self.at("12:00:02"))
                _ = try await client.reportState(
                    tenant, device: "iphone-1", state: "stale", extra: Self.at("12:00:03") + #","frequent_pushes_enabled":null"#)
                #expect(try await database.frequentPushes(tenant, device: "iphone-1") == .some(true))
                #expect(try await database.deviceState(tenant, device: "iphone-1")?.state == "stale")

                // Never reported: null.
                _ = try await client.reportState(tenant, device: "iphone-2", state: "active")
                #expect(try await database.frequentPushes(tenant, device: "iphone-2") == .some(nil))
                let response = try await client.activity("game-42", app: tenant.app.identifier, key: tenant.secret)
                let devices = try #require(try response.json["devices"]?.arrayValue)
                #expect(devices.map { $0["frequent_pushes_enabled"] } == [.bool(true), .null])
            }
        }
    }

    /// A reordered pair at one instant settles the same way: the smaller budget.
    @Test func atOneInstantFalseWins() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                for (device, values) in [("iphone-1", [true, false]), ("iphone-2", [false, true])] {
                    for value in values {
                        _ = try await client.reportState(tenant, device: device, state: "active", extra: Self.at("12:00:00", value))
                    }
                }
            }
            #expect(try await database.frequentPushes(tenant, device: "iphone-1") == .some(false))
            #expect(try await database.frequentPushes(tenant, device: "iphone-2") == .some(false))
        }
    }

    @Test func anythingButABooleanIsRefused() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                for (value, type) in [(#""true""#, "string"), ("1", "number"), ("{}", "object"), ("[true]", "array")] {
                    let response = try await client.reportState(
                        tenant, device: "iphone-1", state: "active", extra: #","frequent_pushes_enabled":\#(value)"#)
                    #expect(response.status == .badRequest, "\(value)")
                    #expect(
                        response.text
                            == #"{"errors":["frequent_pushes_enabled must be true or false, got \#(type)"],"message":"Invalid request: frequent_pushes_enabled must be true or false, got \#(type)"}"#,
                        "\(response.text)")
                }
            }
            #expect(try await database.pool.query("SELECT 1 FROM activity_device_states").isEmpty)
        }
    }
}
