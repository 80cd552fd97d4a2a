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
import PostgresClient
import TestSupport
import Testing

/// Newest state first, end to end: a newer update stops an older one that is still fanning out, and
/// the newest state is what every device gets last.
@Suite("Supersession while delivering", .requiresPostgres)
struct SupersessionDeliveryTests {
    static let devices = 3_000

    /// Slow answers and few pushes in flight stretch one fan-out over a few seconds.
    static var slowSettings: DeliverySettings {
        var settings = DeliveryHarness.testSettings
        settings.pageSize = 200
        settings.maximumPushesInFlight = 64
        return settings
    }

    static func registerSlowDevices(_ harness: DeliveryHarness, count: Int = devices) async throws -> [String] {
        let tokens = (0..<count).map { token(numbered: $0) }
        try await harness.database.insertActivityTokens(tokens, app: harness.tenant.app, activityID: "game-42")
        for device in tokens { harness.simulator.setBehavior(.delay(milliseconds: 15), for: device) }
        return tokens
    }

    /// Devices that got at least one push. (Not `received.count`: libcurl 7.88 sometimes sends one
    /// request twice under load, with the same apns-id.)
    static func devicesReached(_ simulator: APNsSimulator) -> Int {
        Set(simulator.received.map(\.deviceToken)).count
    }

    /// The content state's `key` of each device's last push, by token.
    static func lastStates(_ simulator: APNsSimulator, key: String = "score") throws -> [String: String] {
        var last: [String: String] = [:]
        for push in simulator.received {
            let state = try JSONValue.parse(push.payload)["aps"]?["content-state"]?[key]?.stringValue
            last[push.deviceToken] = state
        }
        return last
    }

    @Test func aSecondUpdateStopsTheFirstAndReachesEveryDeviceLast() async throws {
        try await DeliveryHarness.with(settings: Self.slowSettings) { harness in
            let tokens = try await Self.registerSlowDevices(harness)
            try await DeliveryServiceTests.running(harness.engine) {
                let first = try await harness.update(#""content_state":{"score":"1-0"}"#)
                try await DeliveryServiceTests.waitUntil("the first update is under way", timeout: .seconds(60)) {
                    harness.simulator.received.count >= 300
                }
                let second = try await harness.update(#""content_state":{"score":"2-0"}"#)
                try await DeliveryServiceTests.waitUntil("the second update is done", timeout: .seconds(180)) {
                    try await harness.dispatch(second).require("status", as: String.self) == "done"
                }
                let firstRow = try await harness.dispatch(first)
                #expect(try firstRow.require("status", as: String.self) == "superseded")
                let firstSent = try firstRow.require("sent_count", as: Int.self)
                let firstFailed = try firstRow.require("failed_count", as: Int.self)
                #expect(firstSent < Self.devices / 2, "the first stopped well before its end")
                let firstDevices = Set(
                    harness.simulator.received.filter { String(decoding: $0.payload, as: UTF8.self).contains("1-0") }
                        .map(\.deviceToken))
                // Counts kept: every push APNs took is counted sent, unless its answer was lost (failed).
                #expect(
                    firstSent <= firstDevices.count && firstDevices.count <= firstSent + firstFailed,
                    "sent \(firstSent), failed \(firstFailed), devices reached \(firstDevices.count)")
                let supersededBy = try await harness.database.pool.query(
                    "SELECT superseded_by FROM dispatches WHERE id = $1", [first])[0].require("superseded_by", as: UUID.self)
                #expect(supersededBy.uuidString.lowercased() == second)
                #expect(try await harness.dispatch(second).require("sent_count", as: Int.self) == Self.devices)
                let last = try Self.lastStates(harness.simulator)
                #expect(last.count == tokens.count)
                #expect(last.values.allSatisfy { $0 == "2-0" }, "every device's last push holds the newest state")
            }
        }
    }

    @Test func withSupersessionOffBothUpdatesGoToEveryDevice() async throws {
        var settings = Self.slowSettings
        settings.supersedes = false
        try await DeliveryHarness.with(settings: settings) { harness in
            _ = try await Self.registerSlowDevices(harness, count: 300)
            try await DeliveryServiceTests.running(harness.engine) {
                let first = try await harness.update(#""content_state":{"score":"1-0"}"#)
                try await DeliveryServiceTests.waitUntil("the first update is under way", timeout: .seconds(60)) {
                    harness.simulator.received.count >= 30
                }
                let second = try await harness.update(#""content_state":{"score":"2-0"}"#)
                try await DeliveryServiceTests.waitUntil("both are done", timeout: .seconds(60)) {
                    let firstStatus = try await harness.dispatch(first).require("status", as: String.self)
                    let secondStatus = try await harness.dispatch(second).require("status", as: String.self)
                    return firstStatus == "done" && secondStatus == "done"
                }
                #expect(try await harness.dispatch(first).require("sent_count", as: Int.self) == 300)
            }
        }
    }

    @Test func cancellingADeliveringDispatchStopsItAtItsNextBatch() async throws {
        try await DeliveryHarness.with(settings: Self.slowSettings) { harness in
            _ = try await Self.registerSlowDevices(harness)
            try await DeliveryServiceTests.running(harness.engine) {
                let id = try await harness.update(#""content_state":{"score":"1-0"}"#)
                try await DeliveryServiceTests.waitUntil("the update is under way", timeout: .seconds(60)) {
                    harness.simulator.received.count >= 300
                }
                try await harness.api { client in
                    let response = try await client.execute(
                        uri: "/messages/live_activity/dispatches/\(id)", method: .delete, headers: .bearer(harness.tenant.secret),
                        body: nil)
                    #expect(response.status == .ok, "\(response.text)")
                    #expect(try response.json["status"]?.stringValue == "cancelled")
                }
                let atCancel = Self.devicesReached(harness.simulator)
                try await DeliveryServiceTests.waitUntil("the delivery stopped", timeout: .seconds(60)) {
                    try await harness.dispatch(id).require("status", as: String.self) == "cancelled"
                }
                let row = try await harness.dispatch(id)
                let sent = try row.require("sent_count", as: Int.self)
                let failed = try row.require("failed_count", as: Int.self)
                let reached = Self.devicesReached(harness.simulator)
                #expect(sent <= reached && reached <= sent + failed, "counts kept: sent \(sent), failed \(failed), reached \(reached)")
                #expect(sent - atCancel <= Self.slowSettings.maximumPushesInFlight, "only what was in flight went after the cancel")
                let received = harness.simulator.received.count
                try await Task.sleep(for: .milliseconds(300))
                #expect(harness.simulator.received.count == received, "nothing more is sent")
            }
        }
    }

    /// Another gateway accepted the newer update: this one's delivery learns of it from the database
    /// (checked every second), with no page recorded meanwhile (one page is the whole fan-out here), and
    /// stops part-way.
    @Test func anotherGatewaysUpdateStopsThisOnePartWay() async throws {
        var settings = Self.slowSettings
        settings.pageSize = 10_000
        try await DeliveryHarness.with(settings: settings) { harness in
            _ = try await Self.registerSlowDevices(harness)
            try await DeliveryServiceTests.running(harness.engine) {
                let first = try await harness.update(#""content_state":{"score":"1-0"}"#)
                try await DeliveryServiceTests.waitUntil("the first update is under way", timeout: .seconds(60)) {
                    harness.simulator.received.count >= 200
                }
                // The other gateway's API: its own router, no delivery, no signal to this engine.
                let otherGateway = TestGateway.app(harness.database)
                try await otherGateway.test(.router) { client in
                    let body = #"{"app_id":"\#(harness.tenant.app.identifier)","activity_id":"game-42","content_state":{"score":"2-0"}}"#
                    let response = try await client.post("/messages/live_activity/update", body, key: harness.tenant.secret)
                    #expect(response.status == .created)
                }
                try await DeliveryServiceTests.waitUntil("the first is superseded", timeout: .seconds(30)) {
                    try await harness.dispatch(first).require("status", as: String.self) == "superseded"
                }
                // Stopped part-way, not at the end of its fan-out; and once it ended, no more of it went.
                let oldState = { harness.simulator.received.filter { String(decoding: $0.payload, as: UTF8.self).contains("1-0") }.count }
                #expect(try await harness.dispatch(first).require("sent_count", as: Int.self) < Self.devices)
                let atEnd = oldState()
                try await Task.sleep(for: .milliseconds(300))
                #expect(oldState() == atEnd, "nothing more of the old state is sent")
            }
        }
    }
}
