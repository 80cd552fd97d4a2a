import APNsCore
import APNsSimulator
import Foundation
import LiveGateDelivery
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

/// A fan-out records its accepted pushes as pages of token ids, not as a rewrite of every device's
/// token row; device truth reads each device's last push from both, and pruning keeps each device's
/// newest page only.
@Suite("Pushed pages: device truth without a write per push", .requiresPostgres)
struct PushedPagesTests {
    static let devices = 100

    /// Pages of 40: two of them become pushed pages; the last, of 20, is recorded on its token rows.
    static var settings: DeliverySettings {
        var settings = DeliveryHarness.testSettings
        settings.pageSize = 40
        return settings
    }

    static func withDevices(_ body: @escaping @Sendable (DeliveryHarness, [String]) async throws -> Void) async throws {
        try await DeliveryHarness.with(settings: settings) { harness in
            let tokens = (1...devices).map { token(numbered: $0) }
            try await harness.database.insertActivityTokens(tokens, app: harness.tenant.app, activityID: "game-42")
            try await body(harness, tokens)
        }
    }

    /// Each device's last push as the activity resource shows it, by device id.
    static func lastPushes(_ harness: DeliveryHarness) async throws -> [String: (dispatch: String?, status: Int?)] {
        let json = try await harness.activityResource(query: "&limit=1000")
        var pushes: [String: (dispatch: String?, status: Int?)] = [:]
        for device in json["devices"]?.arrayValue ?? [] {
            guard let id = device["device_id"]?.stringValue else { continue }
            pushes[id] = (
                device["last_push"]?["dispatch_id"]?.stringValue, device["last_push"]?["apns_status"]?.doubleValue.map { Int($0) }
            )
        }
        return pushes
    }

    static func pages(of dispatch: String, _ harness: DeliveryHarness) async throws -> (pages: Int, devices: Int) {
        let row = try await harness.database.pool.query(
            """
            SELECT count(*)::int AS pages, coalesce(sum(cardinality(token_ids)), 0)::int AS devices
            FROM activity_pushed_pages WHERE dispatch_id = $1
            """, [dispatch])[0]
        return (try row.require("pages"), try row.require("devices"))
    }

    @Test func aFanOutsAcceptedPushesArePagesAndEveryDeviceShowsItsLastPush() async throws {
        try await Self.withDevices { harness, _ in
            let id = try await harness.update(#""content_state":{"n":1}"#)
            try await harness.engine.deliverDue()

            let pages = try await Self.pages(of: id, harness)
            #expect(pages.pages == 2)
            #expect(pages.devices == 80)
            let rows = try await harness.database.pool.query(
                "SELECT count(*) FILTER (WHERE last_dispatch_id IS NULL)::int AS untouched FROM activity_tokens")
            #expect(try rows[0].require("untouched", as: Int.self) == 80, "a page's devices keep their rows as they were")

            let pushes = try await Self.lastPushes(harness)
            #expect(pushes.count == Self.devices)
            #expect(pushes.values.allSatisfy { $0.dispatch == id && $0.status == 200 })
        }
    }

    @Test func theNewerPushWinsAndPruningKeepsEachDevicesNewestPageOnly() async throws {
        try await Self.withDevices { harness, tokens in
            let first = try await harness.update(#""content_state":{"n":1}"#)
            try await harness.engine.deliverDue()
            harness.simulator.setBehavior(.fail(status: 400, reason: "BadPriority"), for: tokens[0])
            let second = try await harness.update(#""content_state":{"n":2}"#)
            try await harness.engine.deliverDue()

            let pushes = try await Self.lastPushes(harness)
            #expect(pushes["device-1"]?.dispatch == second)
            #expect(pushes["device-1"]?.status == 400, "a refused push is newer than the page that reached it before")
            #expect(pushes.filter { $0.key != "device-1" }.values.allSatisfy { $0.dispatch == second && $0.status == 200 })

            let pages = PushedPages(pool: harness.database.pool)
            #expect(try await pages.prune() == 0, "pushed within the last 5 s: perhaps still being pushed")
            // Two gateways' passes at once: the page goes once, and neither waits on the other.
            async let one = pages.prune(quiet: .zero)
            async let other = PushedPages(pool: harness.database.pool).prune(quiet: .zero)
            #expect(try await one + other == 1, "the second dispatch's pages reached every device of the first's second page")
            #expect(try await Self.pages(of: first, harness).pages == 1, "device-1's newest page: its own row says more")
            #expect(try await pages.pruneFully() == 1)
            #expect(try await Self.pages(of: first, harness).pages == 0)
            #expect(try await Self.pages(of: second, harness).devices == 79)
            let afterPruning = try await Self.lastPushes(harness)
            #expect(afterPruning.count == pushes.count)
            #expect(afterPruning.allSatisfy { pushes[$0.key]?.dispatch == $0.value.dispatch && pushes[$0.key]?.status == $0.value.status })
        }
    }

    @Test func aNewTokenHasNoLastPushUntilItIsPushed() async throws {
        try await Self.withDevices { harness, _ in
            let id = try await harness.update(#""content_state":{"n":1}"#)
            try await harness.engine.deliverDue()
            try await harness.register(token(0x7e), device: "device-1")

            let pushes = try await Self.lastPushes(harness)
            #expect(pushes["device-1"]?.dispatch == nil, "the page reached the token it replaced")
            #expect(pushes["device-2"]?.dispatch == id)
            #expect(try await PushedPages(pool: harness.database.pool).pruneFully() == 0)
            #expect(try await Self.pages(of: id, harness).pages == 2, "pages other devices still read are kept")
        }
    }

    @Test func pagesGoWithTheirActivitysTokens() async throws {
        try await Self.withDevices { harness, _ in
            let id = try await harness.update(#""content_state":{"n":1}"#)
            try await harness.engine.deliverDue()
            try await harness.database.pool.query("DELETE FROM activity_tokens")
            #expect(
                try await PushedPages(pool: harness.database.pool).prune(quiet: .zero) == 0,
                "one dispatch's pages: nothing newer covers them")
            let report = try await Housekeeping(pool: harness.database.pool).run(
                tokenLifetime: .seconds(86_400), retention: .seconds(3_600))
            #expect(report.pushedPages == 2)
            #expect(try await Self.pages(of: id, harness).pages == 0)
        }
    }
}
