import APNsSimulator
import Foundation
import LiveGateDelivery
import LiveGateDomain
import PostgresClient
import TestSupport
import Testing

/// APNs's 429 `TooManyRequests` is about one device: that device waits (for its `retry-after`, or
/// its own exponential backoff), the others of the page and of other dispatches go on at once, a later
/// dispatch to it waits for its time, and the activity log says so once per activity and hour while
/// every 429 is counted in `activity_priority_hours`.
@Suite("APNs throttling one device", .requiresPostgres)
struct ThrottledDeliveryTests {
    static func throttledOnce(_ retryAfter: String?) -> SimulatedBehavior {
        .failFirst(times: 1, status: 429, reason: "TooManyRequests", retryAfter: retryAfter)
    }

    @Test func a429ForOneDeviceDelaysThatDeviceOnly() async throws {
        try await DeliveryHarness.with { harness in
            let throttled = token(0x31)
            let others = (0x32...0x35).map { token($0) }
            try await harness.database.insertActivityTokens([throttled] + others, app: harness.tenant.app, activityID: "match-1")
            harness.simulator.setBehavior(Self.throttledOnce("3"), for: throttled)
            let before = Date()
            var id = ""
            try await DeliveryServiceTests.running(harness.engine) {
                id = try await harness.update(#""content_state":{"home":1}"#, activityID: "match-1")
                try await Self.waitUntilDone(harness, id)
            }
            let received = harness.simulator.received
            let retried = try #require(received.first { $0.deviceToken == throttled })
            #expect(retried.receivedAt.timeIntervalSince(before) >= 3, "sent again once its retry-after was over")
            for device in others {
                let push = try #require(received.first { $0.deviceToken == device })
                #expect(push.receivedAt < retried.receivedAt, "\(device.suffix(8)) did not wait for the throttled device")
            }
            #expect(received.count == 5)
            let row = try await harness.dispatch(id)
            #expect(try row.require("sent_count", as: Int.self) == 5)
            #expect(try row.require("failed_count", as: Int.self) == 0)
            #expect(try row.require("retried_count", as: Int.self) == 1)
            #expect(try await Self.throttledCount(harness, activityID: "match-1") == 1)
            let entries = try await Self.throttleEntries(harness)
            #expect(entries.count == 1)
            let entry = try #require(entries.first)
            #expect(try entry.decode("masked_token", as: String.self) == String(throttled.suffix(8)))
            #expect(try entry.decode("activity_id", as: String.self) == "match-1")
            #expect(try entry.decode("apns_reason", as: String.self) == "TooManyRequests")
            let message = try entry.require("message", as: String.self)
            #expect(message.contains("429 TooManyRequests") && message.contains("backed off that device alone for 3"), "\(message)")
        }
    }

    /// A later dispatch to another device goes while the throttled one waits; a later dispatch to the
    /// throttled device (under another activity) waits for the same time as its first push's retry.
    @Test func laterDispatchesWaitOnlyForTheThrottledDevice() async throws {
        try await DeliveryHarness.with { harness in
            let throttled = token(0x41)
            let other = token(0x42)
            try await harness.database.insertActivityTokens([throttled], app: harness.tenant.app, activityID: "ride-a")
            try await harness.database.insertActivityTokens([throttled], app: harness.tenant.app, activityID: "ride-b")
            try await harness.database.insertActivityTokens([other], app: harness.tenant.app, activityID: "ride-c")
            harness.simulator.setBehavior(Self.throttledOnce("6"), for: throttled)
            let before = Date()
            try await DeliveryServiceTests.running(harness.engine) {
                let first = try await harness.update(#""content_state":{"eta":1}"#, activityID: "ride-a")
                try await DeliveryServiceTests.waitUntil("APNs throttled the device") {
                    harness.simulator.rejections["TooManyRequests"] == 1
                }
                let toOther = try await harness.update(#""content_state":{"eta":2}"#, activityID: "ride-c")
                let toThrottled = try await harness.update(#""content_state":{"eta":3}"#, activityID: "ride-b")
                try await Self.waitUntilDone(harness, toOther)
                #expect(
                    !harness.simulator.received.contains { $0.deviceToken == throttled },
                    "the other device's dispatch was done while the throttled device still waited")
                try await Self.waitUntilDone(harness, first)
                try await Self.waitUntilDone(harness, toThrottled)
            }
            let pushes = harness.simulator.received.filter { $0.deviceToken == throttled }
            #expect(pushes.count == 2)
            for push in pushes {
                #expect(push.receivedAt.timeIntervalSince(before) >= 6, "neither went before the device's retry-after was over")
            }
            #expect(try await Self.throttledCount(harness, activityID: "ride-a") == 1)
            #expect(try await Self.throttledCount(harness, activityID: "ride-b") == 0, "it waited; APNs did not throttle it")
            #expect(try await Self.throttleEntries(harness).count == 1)
        }
    }

    /// Without `retry-after` the device backs off on its own, longer with each 429 in a row; however
    /// many 429s come, the log says it once per activity and hour, and counts them all.
    @Test func every429IsCountedAndLoggedOncePerActivityAndHour() async throws {
        try await DeliveryHarness.with { harness in
            let throttled = token(0x51)
            try await harness.database.insertActivityTokens([throttled, token(0x52)], app: harness.tenant.app, activityID: "order-5")
            harness.simulator.setBehavior(.failFirst(times: 3, status: 429, reason: "TooManyRequests"), for: throttled)
            try await DeliveryServiceTests.running(harness.engine) {
                let first = try await harness.update(#""content_state":{"n":1}"#, activityID: "order-5")
                try await Self.waitUntilDone(harness, first)
                let row = try await harness.dispatch(first)
                #expect(try row.require("sent_count", as: Int.self) == 2, "the fourth try got through")
                #expect(try row.require("retried_count", as: Int.self) == 3)
                harness.simulator.setBehavior(.failFirst(times: 2, status: 429, reason: "TooManyRequests"), for: throttled)
                let second = try await harness.update(#""content_state":{"n":2}"#, activityID: "order-5")
                try await Self.waitUntilDone(harness, second)
            }
            #expect(harness.simulator.rejections["TooManyRequests"] == 5)
            #expect(try await Self.throttledCount(harness, activityID: "order-5") == 5)
            #expect(try await Self.throttleEntries(harness).count == 1, "once per activity and hour")
            #expect(try await harness.log().count == 1, "and nothing else")
        }
    }

    /// A device whose wait would outlast `maximumThrottleWait` is given up, as when its tries run out;
    /// a later push to it, while it is still backed off, is given up before its first try.
    @Test func aWaitLongerThanTheCapGivesThePushUp() async throws {
        var settings = DeliveryHarness.testSettings
        settings.maximumThrottleWait = .seconds(2)
        try await DeliveryHarness.with(settings: settings) { harness in
            let throttled = token(0x61)
            try await harness.database.insertActivityTokens([throttled, token(0x62)], app: harness.tenant.app, activityID: "game-6")
            harness.simulator.setBehavior(Self.throttledOnce("60"), for: throttled)
            try await DeliveryServiceTests.running(harness.engine) {
                let first = try await harness.update(#""content_state":{"n":1}"#, activityID: "game-6")
                try await Self.waitUntilDone(harness, first)
                let row = try await harness.dispatch(first)
                #expect(try row.require("sent_count", as: Int.self) == 1)
                #expect(try row.require("failed_count", as: Int.self) == 1)
                let second = try await harness.update(#""content_state":{"n":2}"#, activityID: "game-6")
                try await Self.waitUntilDone(harness, second)
                #expect(try await harness.dispatch(second).require("failed_count", as: Int.self) == 1)
            }
            #expect(harness.simulator.received.filter { $0.deviceToken == throttled }.isEmpty)
            #expect(harness.simulator.rejections["TooManyRequests"] == 1, "the second push never went")
            #expect(try await Self.throttledCount(harness, activityID: "game-6") == 1)
            let messages = try await harness.log().map { try $0.require("message", as: String.self) }
            #expect(messages.count == 3, "\(messages)")
            #expect(messages.filter { $0.contains("given up: its tries ran out, or the device's backoff") }.count == 1, "\(messages)")
            #expect(messages.filter { $0.hasPrefix("The push was not sent: APNs is throttling this device") }.count == 1, "\(messages)")
        }
    }

    static func waitUntilDone(_ harness: DeliveryHarness, _ id: String) async throws {
        try await DeliveryServiceTests.waitUntil("dispatch \(id) is done") {
            try await harness.dispatch(id).require("status", as: String.self) == "done"
        }
    }

    static func throttledCount(_ harness: DeliveryHarness, activityID: String) async throws -> Int {
        try await harness.database.count(
            "SELECT coalesce(sum(throttled), 0) FROM activity_priority_hours WHERE app_id = $1 AND activity_id = $2",
            [harness.tenant.app.id, activityID])
    }

    /// The log's entries saying APNs throttled a device.
    static func throttleEntries(_ harness: DeliveryHarness) async throws -> [PostgresRow] {
        try await harness.log().filter { try $0.require("message", as: String.self).hasPrefix("APNs throttled the device") }
    }
}
