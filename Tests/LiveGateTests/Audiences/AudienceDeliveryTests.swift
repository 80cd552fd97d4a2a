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
import PostgresClient
import TestSupport
import Testing

/// A start to an audience is a fan-out like an update's: superseded by a newer start to an audience of
/// the same activity, cancelled by `DELETE`, held until its `send_at`.
@Suite("Starts to an audience, delivered", .requiresPostgres)
struct AudienceDeliveryTests {
    static let lions = #""custom_audience":{"custom_attribute":{"custom_attribute_name":"team","comparison":"equals","value":"lions"}}"#
    static let fans = 3_000
    /// Every other fan supports the lions.
    static let lionsFans = 1_500

    /// Slow answers and few pushes in flight stretch one fan-out over a few seconds.
    static var slowSettings: DeliverySettings { SupersessionDeliveryTests.slowSettings }

    static func seedSlowFans(_ harness: DeliveryHarness) async throws {
        try await harness.insertFans(fans, lionsEvery: 2)
        for index in 0..<fans { harness.simulator.setBehavior(.delay(milliseconds: 15), for: token(numbered: index)) }
    }

    static func lionsFansTokens() -> Set<String> { Set(stride(from: 0, to: fans, by: 2).map { token(numbered: $0) }) }

    @Test func aNewerStartStopsTheOlderMidFanOutAndEveryDeviceEndsOnIt() async throws {
        try await DeliveryHarness.with(settings: Self.slowSettings) { harness in
            try await Self.seedSlowFans(harness)
            try await DeliveryServiceTests.running(harness.engine) {
                let first = try await harness.startToAudience(Self.lions, activityID: "final", score: "kick-off")
                try await DeliveryServiceTests.waitUntil("the first start is under way", timeout: .seconds(60)) {
                    harness.simulator.received.count >= 150
                }
                let second = try await harness.startToAudience(Self.lions, activityID: "final", score: "1-0")
                try await DeliveryServiceTests.waitUntil("the second start is done", timeout: .seconds(180)) {
                    try await harness.dispatch(second).require("status", as: String.self) == "done"
                }
                let firstRow = try await harness.dispatch(first)
                #expect(try firstRow.require("status", as: String.self) == "superseded")
                #expect(try firstRow.require("sent_count", as: Int.self) < Self.lionsFans / 2, "the first stopped well before its end")
                #expect(try await harness.dispatch(second).require("sent_count", as: Int.self) == Self.lionsFans)
                let last = try SupersessionDeliveryTests.lastStates(harness.simulator)
                #expect(Set(last.keys) == Self.lionsFansTokens(), "exactly the lions' fans were started")
                #expect(last.values.allSatisfy { $0 == "1-0" }, "every device's last start holds the newest content")
                // Each device reached is one of the start's targets, with APNs's answer.
                #expect(
                    try await harness.database.count(
                        "SELECT count(*) FROM dispatch_targets WHERE dispatch_id = '\(second)' AND apns_status = 200") == Self.lionsFans)
            }
        }
    }

    @Test func cancellingAStartToAnAudienceStopsItAtItsNextPage() async throws {
        try await DeliveryHarness.with(settings: Self.slowSettings) { harness in
            try await Self.seedSlowFans(harness)
            try await DeliveryServiceTests.running(harness.engine) {
                let id = try await harness.startToAudience(Self.lions, activityID: "final")
                try await DeliveryServiceTests.waitUntil("the start is under way", timeout: .seconds(60)) {
                    harness.simulator.received.count >= 150
                }
                try await harness.api { client in
                    let response = try await client.execute(
                        uri: "/messages/live_activity/dispatches/\(id)", method: .delete, headers: .bearer(harness.tenant.secret),
                        body: nil)
                    #expect(response.status == .ok, "\(response.text)")
                }
                try await DeliveryServiceTests.waitUntil("the delivery stopped", timeout: .seconds(60)) {
                    try await harness.dispatch(id).require("status", as: String.self) == "cancelled"
                }
                let sent = try await harness.dispatch(id).require("sent_count", as: Int.self)
                #expect(sent < Self.lionsFans / 2, "stopped well before its end: \(sent)")
                let received = harness.simulator.received.count
                try await Task.sleep(for: .milliseconds(300))
                #expect(harness.simulator.received.count == received, "nothing more is sent")
                #expect(Set(harness.simulator.received.map(\.deviceToken)).isSubset(of: Self.lionsFansTokens()))
            }
        }
    }

    @Test func aScheduledStartToAnAudienceWaitsForItsTime() async throws {
        try await DeliveryHarness.with { harness in
            try await harness.insertFans(10, lionsEvery: 2)
            // Far enough ahead that a loaded machine accepts the start and claims before its time.
            let sendAt = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 8).rounded(.down))
            let id = try await harness.startToAudience(Self.lions + #","send_at":"\#(iso8601(sendAt))""#, activityID: "final")
            try await harness.engine.deliverDue()
            let claimedEarly = Date() < sendAt
            #expect(!claimedEarly || harness.simulator.received.isEmpty, "not before its time")
            try await Task.sleep(until: .now + .seconds(max(0, sendAt.timeIntervalSinceNow) + 0.2))
            try await harness.engine.deliverDue()
            #expect(Set(harness.simulator.received.map(\.deviceToken)) == Set(stride(from: 0, to: 10, by: 2).map { token(numbered: $0) }))
            #expect(try await harness.dispatch(id).require("status", as: String.self) == "done")
        }
    }

    /// No matching user holds a token: the start ends done, and the log says so.
    @Test func anAudienceNobodyMatchesIsLogged() async throws {
        try await DeliveryHarness.with { harness in
            try await harness.insertFans(4, lionsEvery: 100)
            let nobody = #""custom_audience":{"custom_attribute":{"custom_attribute_name":"team","comparison":"equals","value":"eagles"}}"#
            let id = try await harness.startToAudience(nobody, activityID: "final")
            try await harness.engine.deliverDue()
            #expect(harness.simulator.received.isEmpty)
            #expect(try await harness.dispatch(id).require("status", as: String.self) == "done")
            let messages = try await harness.log().map { try $0.require("message", as: String.self) }
            #expect(messages == ["No user matching the audience has a push-to-start token for MatchAttributes; nothing was sent."])
        }
    }
}
