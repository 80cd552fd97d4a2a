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
import NIOConcurrencyHelpers
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

    /// An update handed over at its commit to a running engine, as most are in production, whose batch
    /// record meets a dropped connection: handed back, claimed and delivered again. The commit rings a
    /// doorbell the engine does not hear and the poll is an hour away, so only the handoff brings it to
    /// the engine the first time, and only the hand-back the second.
    @Test func aHandedOverUpdateWhoseRecordMeetsAnOutageIsDeliveredAgain() async throws {
        var settings = DeliveryHarness.testSettings
        settings.pollInterval = .seconds(3_600)
        try await DeliveryHarness.with(settings: settings) { harness in
            try await harness.database.insertActivityTokens(Self.devices, app: harness.tenant.app, activityID: "game-42")
            let proxy = try PostgresFaultProxy.inFrontOfTestPostgres()
            defer { proxy.close() }
            proxy.inject(.breakConnection, whenStatementContains: Self.batchRecord)
            let pool = PostgresConnectionPool(
                configuration: .init(
                    connectionString: proxy.connectionString(through: harness.database.connectionString), maximumConnections: 4))
            let gateway = harness.gateway(worker: "proxied-worker", pool: pool)
            let engine = try #require(gateway.engine)
            let deaf = DeliveryCommits(doorbell: DeliveryDoorbell(), stops: gateway.commits.stops, handoff: gateway.commits.handoff)
            let app = buildApplication(
                configuration: gateway.configuration, dependencies: .postgres(pool: harness.database.pool, commits: deaf),
                logger: .quiet)
            let id = NIOLockedValueBox<String?>(nil)
            do {
                try await DeliveryServiceTests.running(engine) {
                    try await DeliveryServiceTests.waitUntil("the engine holds its session", timeout: .seconds(20)) {
                        try await !harness.database.pool.query(
                            "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = 1279738956 AND granted"
                        ).isEmpty
                    }
                    try await app.test(.router) { client in
                        let body = #"{"app_id":"\#(harness.tenant.app.identifier)","activity_id":"game-42","content_state":{"home":2}}"#
                        let response = try await client.post("/messages/live_activity/update", body, key: harness.tenant.secret)
                        #expect(response.status == .created)
                        id.withLockedValue { $0 = response.dispatchID }
                    }
                    let dispatch = try #require(id.withLockedValue { $0 })
                    try await DeliveryServiceTests.waitUntil("delivered again", timeout: .seconds(30)) {
                        try await Self.lease(of: dispatch, harness).status == "done"
                    }
                }
            } catch {
                await pool.close()
                throw error
            }
            await pool.close()
            #expect(proxy.statements(containing: Self.batchRecord) == 2, "recorded once it was delivered again")
            let row = try await harness.dispatch(try #require(id.withLockedValue { $0 }))
            #expect(try row.require("attempts", as: Int.self) == 2, "handed over, then claimed once")
            #expect(try row.require("sent_count", as: Int.self) == Self.devices.count)
            #expect(harness.simulator.received.count == 2 * Self.devices.count, "nothing of the first try was recorded")
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
        let engine = try #require(harness.gateway(worker: "failing-worker", pool: pool).engine)
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
