import APNsClient
import APNsCore
import APNsSimulator
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

/// Small dispatches (a few devices each, the delivery-tracking shape) are claimed, sent and finished
/// many at a time, each keeping its own counts, log entries and newest-state-first guarantee.
@Suite("Small dispatches delivered together", .requiresPostgres)
struct SmallDispatchBatchTests {
    /// Activity `k`'s devices: one for even `k`, two for odd.
    static func devices(of activity: Int) -> [String] {
        activity % 2 == 0 ? [token(numbered: 100 * activity)] : [token(numbered: 100 * activity), token(numbered: 100 * activity + 1)]
    }

    /// 30 orders, an update to each: every device gets its own order's state once, each dispatch is done
    /// with its own count, and they end in a handful of transactions (one per claim), not thirty.
    @Test func manySmallDispatchesAreSentAndFinishedTogether() async throws {
        try await DeliveryHarness.with { harness in
            for activity in 0..<30 {
                try await harness.database.insertActivityTokens(
                    Self.devices(of: activity), app: harness.tenant.app, activityID: "order-\(activity)")
            }
            var ids: [Int: String] = [:]
            for activity in 0..<30 {
                ids[activity] = try await harness.update(#""content_state":{"eta":\#(activity)}"#, activityID: "order-\(activity)")
            }
            #expect(try await harness.engine.deliverDue() == 30)

            let rows = try await harness.database.pool.query(
                "SELECT id, status, sent_count, failed_count, attempts, completed_at FROM dispatches")
            var finishedAt: Set<Date> = []
            for row in rows {
                let id: String = try row.require("id")
                let activity = try #require(ids.first { $0.value == id }?.key)
                #expect(try row.require("status", as: String.self) == "done")
                #expect(try row.require("sent_count", as: Int.self) == Self.devices(of: activity).count)
                #expect(try row.require("failed_count", as: Int.self) == 0)
                #expect(try row.require("attempts", as: Int.self) == 1)
                finishedAt.insert(try row.require("completed_at"))
            }
            // A transaction's now() is one instant: dispatches finished together share it.
            #expect(finishedAt.count <= 2, "30 dispatches ended at \(finishedAt.count) different instants")

            let received = harness.simulator.received
            #expect(received.count == (0..<30).map { Self.devices(of: $0).count }.reduce(0, +))
            for activity in 0..<30 {
                for device in Self.devices(of: activity) {
                    let pushes = received.filter { $0.deviceToken == device }
                    #expect(pushes.count == 1, "\(device.suffix(8)) got \(pushes.count) pushes")
                    let payload = pushes.first.map { String(decoding: $0.payload, as: UTF8.self) } ?? ""
                    #expect(payload.contains(#""eta":\#(activity)"#), "\(payload)")
                }
            }
            #expect(try await harness.log().isEmpty)
        }
    }

    /// Two updates to one order, both still waiting when one claim takes them (committed without
    /// superseding, as by two gateways at the same moment): the older ends superseded with nothing sent,
    /// the newer reaches the device, in the same transaction.
    @Test func aSupersessionInsideOneBatchSendsOnlyTheNewest() async throws {
        var settings = DeliveryHarness.testSettings
        settings.supersedes = false
        try await DeliveryHarness.with(settings: settings) { harness in
            let device = token(numbered: 7)
            try await harness.database.insertActivityTokens([device], app: harness.tenant.app, activityID: "order-7")
            try await harness.database.insertActivityTokens([token(numbered: 8)], app: harness.tenant.app, activityID: "order-8")
            let older = try await harness.update(#""content_state":{"stage":"cooking"}"#, activityID: "order-7")
            let other = try await harness.update(#""content_state":{"stage":"cooking"}"#, activityID: "order-8")
            let newer = try await harness.update(#""content_state":{"stage":"on the way"}"#, activityID: "order-7")
            let engine = harness.anotherEngine(
                worker: "claims-both", queue: PostgresDeliveryQueue(pool: harness.database.pool, supersedes: true))
            #expect(try await engine.deliverDue() == 3)
            await engine.shutdown()

            let olderRow = try await harness.dispatch(older)
            #expect(try olderRow.require("status", as: String.self) == "superseded")
            #expect(try olderRow.require("sent_count", as: Int.self) == 0)
            for id in [newer, other] {
                let row = try await harness.dispatch(id)
                #expect(try row.require("status", as: String.self) == "done")
                #expect(try row.require("sent_count", as: Int.self) == 1)
            }
            let pushes = harness.simulator.received.filter { $0.deviceToken == device }
            #expect(pushes.count == 1)
            let payload = pushes.first.map { String(decoding: $0.payload, as: UTF8.self) } ?? ""
            #expect(payload.contains("on the way"), "\(payload)")
            let instants = try await harness.database.pool.query("SELECT DISTINCT completed_at FROM dispatches")
            #expect(instants.count == 1, "settled in one transaction")
        }
    }

    /// An update accepted first but claimed only after a newer one to the same order (two group commits
    /// under way at once can commit them in either order), while another gateway delivers the newer one:
    /// the claim finds it older than what already took effect, and it ends superseded without sending
    /// the older state.
    @Test func anOlderDispatchClaimedWhileANewerOneIsDeliveredSendsNothing() async throws {
        var settings = DeliveryHarness.testSettings
        settings.supersedes = false
        try await DeliveryHarness.with(settings: settings) { harness in
            try await harness.database.insertActivityTokens([token(numbered: 9)], app: harness.tenant.app, activityID: "order-9")
            let older = try await harness.update(#""content_state":{"stage":"cooking"}"#, activityID: "order-9")
            let newer = try await harness.update(#""content_state":{"stage":"delivered"}"#, activityID: "order-9")
            // The newer one was claimed first, by whichever gateway saw it committed first.
            try await harness.database.pool.query(
                """
                UPDATE dispatches SET status = 'delivering', leased_by = 'other-gateway', attempts = 1,
                    leased_until = now() + interval '1 minute'
                WHERE id = $1
                """, [newer])
            let engine = harness.anotherEngine(
                worker: "claims-late", queue: PostgresDeliveryQueue(pool: harness.database.pool, supersedes: true))
            #expect(try await engine.deliverDue() == 1)
            await engine.shutdown()
            let row = try await harness.dispatch(older)
            #expect(try row.require("status", as: String.self) == "superseded")
            #expect(try row.require("sent_count", as: Int.self) == 0)
            #expect(harness.simulator.received.isEmpty, "the older state was not sent")
        }
    }

    /// A batch whose app cannot reach APNs (nothing listens): each dispatch is handed back for later,
    /// its retries counted, and none is counted as sent or failed.
    @Test func anUnreachableBatchIsHandedBackDispatchByDispatch() async throws {
        let nowhere = try #require(APNsEndpoint(rawValue: "https://127.0.0.1:\(LiveGateBinary.freePort())"))
        try await DeliveryHarness.with(endpoint: nowhere) { harness in
            for activity in 0..<5 {
                try await harness.database.insertActivityTokens(
                    [token(numbered: activity)], app: harness.tenant.app, activityID: "order-\(activity)")
                try await harness.update(#""content_state":{"eta":\#(activity)}"#, activityID: "order-\(activity)")
            }
            #expect(try await harness.engine.deliverDue() == 5)
            let rows = try await harness.database.pool.query(
                "SELECT status, sent_count, failed_count, retried_count, next_attempt_at > now() AS waiting FROM dispatches")
            #expect(rows.count == 5)
            for row in rows {
                #expect(try row.require("status", as: String.self) == "pending")
                #expect(try row.require("waiting", as: Bool.self), "due again later, not at once")
                #expect(try row.require("sent_count", as: Int.self) == 0 && row.require("failed_count", as: Int.self) == 0)
                #expect(try row.require("retried_count", as: Int.self) >= 1, "the tries in place are counted")
            }
        }
    }
}
