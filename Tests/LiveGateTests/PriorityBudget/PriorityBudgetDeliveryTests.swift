import APNsCore
import APNsSimulator
import Foundation
import HTTPTypes
import HummingbirdTesting
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

/// An app's hourly priority budget, as its engine applies it: each activity's priority-10 updates are
/// counted, and past the budget its updates go at priority 5 (an `end` and an alert keep 10), the
/// frequent budget for devices whose app reported frequent updates allowed.
@Suite("Priority budget: updates past it go at priority 5", .requiresPostgres)
struct PriorityBudgetDeliveryTests {
    /// The priorities `token` received, in order.
    static func priorities(_ simulator: APNsSimulator, to token: String) -> [String] {
        simulator.received.filter { $0.deviceToken == token }.map { $0.headers["apns-priority"] ?? "none" }
    }

    /// Posts each update once the one before it reached every device: one after another, none superseded.
    static func postOneByOne(
        _ harness: DeliveryHarness, _ bodies: [String], activityID: String, devices: Int
    ) async throws {
        for body in bodies {
            let before = harness.simulator.received.count
            try await harness.update(body, activityID: activityID)
            try await DeliveryServiceTests.waitUntil("the update reached every device", timeout: .seconds(30)) {
                harness.simulator.received.count >= before + devices
            }
        }
    }

    static func hours(_ harness: DeliveryHarness, activityID: String) async throws -> (high: Int, lowered: Int) {
        let row = try await harness.database.pool.query(
            "SELECT coalesce(sum(sent_high), 0)::int AS high, coalesce(sum(lowered), 0)::int AS lowered FROM activity_priority_hours WHERE activity_id = $1",
            [activityID])[0]
        return (try row.require("high"), try row.require("lowered"))
    }

    @Test func twelveUpdatesWithABudgetOfFiveGoFiveAtTenThenSevenAtFiveAndTheEndAtTen() async throws {
        try await DeliveryHarness.with { harness in
            _ = try await harness.database.tenancy.setPriorityBudget(
                appIdentifier: harness.tenant.app.identifier, budget: PriorityBudget(perHour: 5))
            try await harness.register(token(0x61), device: "phone", tag: "match-1")
            try await DeliveryServiceTests.running(harness.engine) {
                let updates = (1...12).map { #""content_state":{"score":\#($0)}"# }
                try await Self.postOneByOne(harness, updates, activityID: "match-1", devices: 1)
                try await Self.postOneByOne(
                    harness, [#""content_state":{"score":12},"end_activity":true"#], activityID: "match-1", devices: 1)
            }
            #expect(
                Self.priorities(harness.simulator, to: token(0x61))
                    == Array(repeating: "10", count: 5) + Array(repeating: "5", count: 7) + ["10"])
            let lowered = try await harness.log().filter { try $0.require("type", as: String.self) == "Live Activity priority lowered" }
            #expect(lowered.count == 1, "one entry for the activity's hour")
            let message = try #require(lowered.first).require("message", as: String.self)
            #expect(message.contains("had 5 priority-10 updates in the last hour") && message.contains("budget of 5"), "\(message)")
            #expect(try #require(lowered.first).decode("activity_id", as: String.self) == "match-1")
            let hours = try await Self.hours(harness, activityID: "match-1")
            #expect(hours.high == 6, "five updates and the end went at priority 10")
            #expect(hours.lowered == 7)
        }
    }

    /// An update with an alert keeps priority 10 past the budget, and counts; one asked at priority 5
    /// is not counted at all; an app without a budget sends every update at the priority it asked.
    @Test func alertsKeepPriorityTenAndPriorityFiveIsNotCounted() async throws {
        try await DeliveryHarness.with { harness in
            _ = try await harness.database.tenancy.setPriorityBudget(
                appIdentifier: harness.tenant.app.identifier, budget: PriorityBudget(perHour: 1))
            try await harness.register(token(0x62), device: "phone", tag: "match-2")
            try await DeliveryServiceTests.running(harness.engine) {
                try await Self.postOneByOne(
                    harness,
                    [
                        #""content_state":{"score":1},"priority":5"#,
                        #""content_state":{"score":2}"#,
                        #""content_state":{"score":3},"notification":{"alert":{"title":"Goal","body":"3-0"}}"#,
                        #""content_state":{"score":4}"#,
                    ], activityID: "match-2", devices: 1)
            }
            #expect(Self.priorities(harness.simulator, to: token(0x62)) == ["5", "10", "10", "5"])
            let hours = try await Self.hours(harness, activityID: "match-2")
            #expect(hours.high == 2 && hours.lowered == 1)
        }
    }

    /// Devices whose app reported frequent updates allowed get the frequent budget, on the small path and
    /// on a fan-out's pages; the others, the standard one.
    @Test(arguments: [2, 40])
    func aDeviceThatAllowsFrequentUpdatesGetsTheFrequentBudget(devices: Int) async throws {
        try await DeliveryHarness.with { harness in
            _ = try await harness.database.tenancy.setPriorityBudget(
                appIdentifier: harness.tenant.app.identifier, budget: PriorityBudget(perHour: 2, frequentPerHour: 4))
            let tokens = (0..<devices).map { token(numbered: 0x100 + $0) }
            for (index, device) in tokens.enumerated() {
                try await harness.register(device, device: "device-\(index)", tag: "match-3")
            }
            // The first device allows frequent updates, as its SDK reported for another of the app's
            // activities: the setting is the app's on the device. The second said it does not.
            try await harness.api { client in
                let allowed = try await client.reportState(
                    harness.tenant, device: "device-0", activity: "earlier-match", state: "active",
                    extra: #","frequent_pushes_enabled":true"#)
                #expect(allowed.status == .created)
                let refused = try await client.reportState(
                    harness.tenant, device: "device-1", activity: "match-3", state: "active", extra: #","frequent_pushes_enabled":false"#)
                #expect(refused.status == .created)
            }
            try await DeliveryServiceTests.running(harness.engine) {
                let updates = (1...6).map { #""content_state":{"score":\#($0)}"# }
                try await Self.postOneByOne(harness, updates, activityID: "match-3", devices: devices)
            }
            #expect(Self.priorities(harness.simulator, to: tokens[0]) == ["10", "10", "10", "10", "5", "5"])
            for device in tokens.dropFirst() {
                #expect(Self.priorities(harness.simulator, to: device) == ["10", "10", "5", "5", "5", "5"])
            }
            let hours = try await Self.hours(harness, activityID: "match-3")
            #expect(hours.high == 4, "the third and fourth still went at 10 to the frequent device")
            #expect(hours.lowered == 4)
        }
    }

    /// A dispatch counted once keeps its place when it is handed back and claimed again: the claim reads
    /// it, the count does not grow, and it gets the same priority.
    @Test func aDispatchHandedBackKeepsItsPlaceAndIsNotCountedAgain() async throws {
        try await DeliveryHarness.with { harness in
            let queue = PostgresDeliveryQueue(pool: harness.database.pool)
            try await harness.register(token(0x63), device: "phone", tag: "match-4")
            _ = try await harness.update(#""content_state":{"score":1}"#, activityID: "match-4")
            var claimed = try #require(try await queue.claim(worker: "w1", limit: 10, lease: .seconds(30)).first)
            #expect(claimed.countedPosition == nil)
            let budget = try #require(PriorityBudget(perHour: 3))
            let count = PriorityCount(dispatch: claimed.dispatch, budget: budget, toStandardDevices: true, toFrequentDevices: false)
            let first = try #require(try await PriorityCounting.standings(of: [(claimed, count)], queue: queue)[claimed.dispatch.id])
            #expect(first.position == 0 && !first.keepsPriority)
            claimed.priorityStanding = first
            #expect(try await queue.settle(DispatchSettlement(claimed, .handedBack(retryAt: Date())), worker: "w1"))

            let again = try #require(try await queue.claim(worker: "w2", limit: 10, lease: .seconds(30)).first)
            #expect(again.countedPosition == 0)
            let standing = try await PriorityCounting.standings(of: [(again, count)], queue: queue)[again.dispatch.id]
            #expect(standing == first)
            #expect(try await Self.hours(harness, activityID: "match-4").high == 1, "counted once")
        }
    }

    /// Updates of one activity counted together (a burst claimed in one batch) stand one after another.
    @Test func updatesOfOneActivityCountedTogetherStandOneAfterAnother() async throws {
        try await DeliveryHarness.with { harness in
            let queue = PostgresDeliveryQueue(pool: harness.database.pool)
            let budget = try #require(PriorityBudget(perHour: 2))
            let dispatches = (0..<4).map { index in
                Dispatch(
                    workspaceID: harness.tenant.workspace.id, appID: harness.tenant.app.id, event: index == 3 ? .end : .update,
                    activityID: index == 1 ? "other" : "burst", externalID: nil, payload: Array(#"{"aps":{}}"#.utf8),
                    priority: .immediate, expiresAt: Date() + 3600)
            }
            let counts = dispatches.map { PriorityCount(dispatch: $0, budget: budget, toStandardDevices: true, toFrequentDevices: false) }
            let standings = try await queue.countPriority(counts)
            #expect(dispatches.map { standings[$0.id]?.position } == [0, 0, 1, 2])
            #expect(standings[dispatches[3].id]?.keepsPriority == true, "an end")
            #expect(try await Self.hours(harness, activityID: "burst").high == 3)
        }
    }

    /// The last hour is this clock hour's count plus the part of the previous hour's the last 60 minutes
    /// still cover: a burst just before the hour turned still counts just after it.
    @Test func thePreviousHourCountsForWhatTheLastSixtyMinutesStillCover() async throws {
        try await DeliveryHarness.with { harness in
            let pool = harness.database.pool
            try await harness.register(token(0x64), device: "phone", tag: "match-5")
            _ = try await pool.query(
                """
                INSERT INTO activity_priority_hours (app_id, activity_id, hour, sent_high)
                VALUES ($1, 'match-5', date_trunc('hour', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '1 hour', 60)
                """, [harness.tenant.app.id])
            let expected: Int = try await pool.query(
                """
                SELECT ceil(60 * (1 - extract(epoch FROM now() - (date_trunc('hour', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')) / 3600))::int AS n
                """)[0].require("n")
            let dispatch = Dispatch(
                workspaceID: harness.tenant.workspace.id, appID: harness.tenant.app.id, event: .update, activityID: "match-5",
                externalID: nil, payload: Array(#"{"aps":{}}"#.utf8), priority: .immediate, expiresAt: Date() + 3600)
            let budget = try #require(PriorityBudget(perHour: 1_000))
            let standings = try await PostgresDeliveryQueue(pool: pool).countPriority([
                PriorityCount(dispatch: dispatch, budget: budget, toStandardDevices: true, toFrequentDevices: false)
            ])
            let position = try #require(standings[dispatch.id]).position
            // The statement ran a moment after the estimate above: the previous hour's share can only have shrunk.
            #expect(position <= expected && position >= expected - 1, "\(position) vs \(expected)")
        }
    }
}
