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

/// A delivery that fails mid-way hands its dispatch back rather than leaving it to its lease, even when
/// the database is away at that moment: the release is tried again until it answers. The faults are the
/// database's, met by the engine's own queue through `PostgresFaultProxy`: the path production runs.
@Suite("Handing a failed delivery back", .requiresPostgres)
struct HandBackAfterFailureTests {
    static let devices = (0..<3).map { token(numbered: $0) }
    /// What recording the end of a batch of small dispatches runs (three devices make a small dispatch).
    static let batchRecord = "UPDATE dispatches d\nSET status = CASE WHEN r.status"
    /// What handing one dispatch back runs.
    static let release = "UPDATE dispatches SET status = 'pending', next_attempt_at = $3"

    /// A record the database refused (not an outage), and then two releases that met the database away:
    /// the third release goes through, and the dispatch waits out the retry delay unleased, not claimed
    /// until its lease (30 s here) runs out.
    @Test func aRefusedRecordIsHandedBackOnceTheDatabaseAnswers() async throws {
        try await DeliveryHarness.with { harness in
            let (id, proxy) = try await Self.deliverOnce(
                harness, recordMeets: .fail(sqlState: "XX000", message: "injected: internal error"))
            defer { proxy.close() }
            #expect(proxy.statements(containing: Self.batchRecord) == 1)
            #expect(proxy.statements(containing: Self.release) == 3)
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
            let (id, proxy) = try await Self.deliverOnce(harness, recordMeets: .breakConnection)
            defer { proxy.close() }
            #expect(proxy.statements(containing: Self.release) == 3)
            #expect(try await Self.lease(of: id, harness).status == "done")
            // Nothing of the first try was recorded, so every device was sent the update again.
            #expect(harness.simulator.received.count == 2 * Self.devices.count)
        }
    }

    /// Posts an update to the devices and delivers what is due with an engine whose database connections
    /// go through a fault proxy: the first record of the batch meets `fault`, the first two releases a
    /// broken connection. Returns the dispatch id and the proxy, which saw every statement.
    static func deliverOnce(
        _ harness: DeliveryHarness, recordMeets fault: PostgresFaultProxy.Fault
    ) async throws -> (id: String, proxy: PostgresFaultProxy) {
        try await harness.database.insertActivityTokens(devices, app: harness.tenant.app, activityID: "game-42")
        let id = try await harness.update(#""content_state":{"home":1,"away":0}"#)
        let proxy = try PostgresFaultProxy.inFrontOfTestPostgres()
        proxy.inject(fault, whenStatementContains: batchRecord)
        proxy.inject(.breakConnection, whenStatementContains: release, times: 2)
        let pool = PostgresConnectionPool(
            configuration: .init(
                connectionString: proxy.connectionString(through: harness.database.connectionString), maximumConnections: 4))
        let engine = harness.anotherEngine(worker: "failing-worker", queue: PostgresDeliveryQueue(pool: pool))
        do {
            try await engine.deliverDue()
        } catch {
            await engine.shutdown()
            await pool.close()
            throw error
        }
        await engine.shutdown()
        await pool.close()
        return (id, proxy)
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
