import APNsSimulator
import Foundation
import LiveGate
import PostgresClient
import TestSupport
import Testing

/// A delivery that fails mid-way hands its dispatch back rather than leaving it to its lease, even when
/// the database is away at that moment: the release is tried again until it answers.
@Suite("Handing a failed delivery back", .requiresPostgres)
struct HandBackAfterFailureTests {
    static let devices = (0..<3).map { token(numbered: $0) }

    /// A page record the database refused (not an outage), and then two releases that met the database
    /// away: the third release goes through, and the dispatch waits out the retry delay unleased, where
    /// before it stayed claimed until the lease (30 s here) ran out.
    @Test func aRefusedRecordIsHandedBackOnceTheDatabaseAnswers() async throws {
        try await DeliveryHarness.with { harness in
            let (id, queue) = try await Self.deliverOnce(
                harness, recordFailsWith: PostgresError(code: .statementFailed, sqlState: "XX000", message: "injected: internal error"))
            #expect(queue.releasesTried == 3)
            let row = try await Self.lease(of: id, harness)
            #expect(row.status == "pending")
            #expect(row.leasedBy == nil)
            #expect(row.waiting, "due after the dispatch retry's base delay, not at once")
        }
    }

    /// The database away mid-delivery: the dispatch is handed back due at once, once a release goes
    /// through, and delivered again from its last recorded page.
    @Test func anOutageMidDeliveryIsHandedBackDueAtOnce() async throws {
        try await DeliveryHarness.with { harness in
            let (id, queue) = try await Self.deliverOnce(
                harness, recordFailsWith: PostgresError(code: .connectionLost, message: "injected: the connection broke"))
            #expect(queue.releasesTried == 3)
            #expect(try await Self.lease(of: id, harness).status == "done")
            // Nothing of the first try was recorded, so every device was sent the update again.
            #expect(harness.simulator.received.count == 2 * Self.devices.count)
        }
    }

    /// Posts an update to the devices and delivers what is due through a queue whose first page record
    /// fails with `error` and whose first two releases meet the database away; returns the dispatch id.
    static func deliverOnce(
        _ harness: DeliveryHarness, recordFailsWith error: PostgresError
    ) async throws -> (id: String, queue: FaultInjectingDeliveryQueue) {
        try await harness.database.insertActivityTokens(devices, app: harness.tenant.app, activityID: "game-42")
        let id = try await harness.update(#""content_state":{"home":1,"away":0}"#)
        let queue = FaultInjectingDeliveryQueue(
            base: PostgresDeliveryQueue(pool: harness.database.pool), failingProgress: 1, progressError: error, failingReleases: 2)
        let engine = harness.anotherEngine(worker: "failing-worker", queue: queue)
        try await engine.deliverDue()
        await engine.shutdown()
        return (id, queue)
    }

    static func lease(of id: String, _ harness: DeliveryHarness) async throws -> (status: String, leasedBy: String?, waiting: Bool) {
        let row = try await harness.database.pool.query(
            "SELECT status, leased_by, next_attempt_at > now() AS waiting FROM dispatches WHERE id = $1", [id])[0]
        return (
            try row.require("status", as: String.self), try row.decode("leased_by", as: String.self),
            try row.require("waiting", as: Bool.self)
        )
    }
}
