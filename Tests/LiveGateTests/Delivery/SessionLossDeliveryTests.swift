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

/// A delivering engine whose worker session the database ends (as a restart does) while the worker
/// goes on: it starts no page until it holds its session again, then goes on only if the dispatch is
/// still its own.
@Suite("Delivery when the worker's session is lost", .requiresPostgres)
struct SessionLossDeliveryTests {
    static let devices = 400

    static var settings: DeliverySettings {
        var settings = DeliveryHarness.testSettings
        settings.pageSize = 20
        settings.maximumPushesInFlight = 10
        settings.lease = .seconds(60)
        return settings
    }

    @Test func aWorkerWhoseSessionWasEndedTakesItAgainAndFinishesAlone() async throws {
        try await DeliveryHarness.with(settings: Self.settings) { harness in
            let tokens = try await Self.slowDevices(harness)
            let engine = harness.anotherEngine(worker: "sessioned", session: true)
            var id = ""
            try await DeliveryServiceTests.running(engine) {
                id = try await harness.update(#""content_state":{"n":1}"#, activityID: "final")
                try await DeliveryServiceTests.waitUntil("a few pages went out") { harness.simulator.received.count >= 60 }
                #expect(try await Self.endSessions(harness.database) == 1)
                try await DeliveryServiceTests.waitUntil("every device got the push", timeout: .seconds(60)) {
                    Set(harness.simulator.received.map(\.deviceToken)).count == Self.devices
                }
                try await DeliveryServiceTests.waitUntil("the dispatch is done") {
                    try await harness.dispatch(id).require("status", as: String.self) == "done"
                }
                // The worker takes its session again in the background: wait for it (a fan-out that finished
                // before the loss was noticed leaves that for after), under the number it claimed with.
                try await DeliveryServiceTests.waitUntil("the worker holds its session again") {
                    try await harness.database.pool.query(
                        """
                        SELECT 1 FROM pg_locks l JOIN dispatches d ON l.objid = d.leased_by_session
                        WHERE l.locktype = 'advisory' AND l.classid = 1279738956 AND l.granted AND d.id = $1
                          AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                        """, [id]
                    ).count == 1
                }
            }
            #expect(Set(harness.simulator.received.map(\.deviceToken)) == Set(tokens))
            let row = try await harness.dispatch(id)
            #expect(try row.require("attempts", as: Int.self) == 1, "never taken over: it proved it still held the dispatch")
            #expect(try row.require("sent_count", as: Int.self) == Self.devices, "every page recorded once")
        }
    }

    @Test func aWorkerWhoseDispatchWasTakenOverMeanwhileSendsNoMoreOfIt() async throws {
        try await DeliveryHarness.with(settings: Self.settings) { harness in
            _ = try await Self.slowDevices(harness)
            let engine = harness.anotherEngine(worker: "sessioned", session: true)
            // The test's own session, to hold the worker's lock while it is away.
            let intruder = PostgresSession(configuration: harness.database.pool.configuration)
            do {
                try await DeliveryServiceTests.running(engine) {
                    let id = try await harness.update(#""content_state":{"n":1}"#, activityID: "final")
                    try await DeliveryServiceTests.waitUntil("a few pages went out") { harness.simulator.received.count >= 60 }
                    let number: Int32 = try await harness.database.pool.query(
                        "SELECT leased_by_session FROM dispatches WHERE id = $1", [id])[0].require("leased_by_session")
                    // Queued behind the worker's session: granted the moment the server ends it, before the
                    // worker can connect again, so the worker stays without its session.
                    let locked = Task {
                        try await intruder.withConnection { connection, _ in
                            try connection.query("SELECT pg_advisory_lock(1279738956, $1::int)", [number])
                        }
                    }
                    try await DeliveryServiceTests.waitUntil("the test's lock request waits behind the worker's session") {
                        try await harness.database.pool.query(
                            """
                            SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = 1279738956 AND objid = $1
                              AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                            """, [number]
                        ).count == 1
                    }
                    let atLoss = harness.simulator.received.count
                    #expect(try await Self.endSessions(harness.database) == 1)
                    _ = try await locked.value
                    // Without its session the worker starts no page; it stays away a while.
                    try await Task.sleep(for: .seconds(2))

                    // Another worker takes the dispatch over (its lease moved into the past), then the worker
                    // gets its session back: it must find out and send no more.
                    try await harness.database.pool.query("UPDATE dispatches SET leased_until = now() - interval '1 second'")
                    let taken = try await PostgresDeliveryQueue(pool: harness.database.pool).claim(
                        worker: "intruder", limit: 1, lease: .seconds(60))
                    #expect(taken.map(\.dispatch.id.uuidString).map { $0.lowercased() } == [id.lowercased()])
                    _ = try await intruder.withConnection { connection, _ in
                        try connection.query("SELECT pg_advisory_unlock_all()")
                    }
                    try await DeliveryServiceTests.waitUntil("the worker holds its session again") {
                        try await harness.database.pool.query(
                            """
                            SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = 1279738956 AND objid = $1
                              AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                            """, [number]
                        ).count == 1
                    }
                    try await Task.sleep(for: .seconds(2))
                    // Only what was under way when the session was lost went out: the page being sent, the
                    // next one already started, and one more at most if the loss was noticed late. The
                    // rest of the fan-out is the new owner's.
                    let sent = harness.simulator.received.count - atLoss
                    #expect(sent <= 3 * Self.settings.pageSize, "\(sent) pushes after the session was lost")
                    #expect(harness.simulator.received.count < Self.devices)
                    let row = try await harness.dispatch(id)
                    #expect(try row.require("status", as: String.self) == "delivering")
                    let owner: String = try await harness.database.pool.query(
                        "SELECT leased_by FROM dispatches WHERE id = $1", [id])[0].require("leased_by")
                    #expect(owner == "intruder")
                }
            } catch {
                await intruder.close()
                throw error
            }
            await intruder.close()
        }
    }

    /// Devices under the tag "final" whose pushes APNs answers slowly, so a fan-out lasts seconds.
    static func slowDevices(_ harness: DeliveryHarness) async throws -> [String] {
        let tokens = (0..<devices).map { token(numbered: $0) }
        for device in tokens { harness.simulator.setBehavior(.delay(milliseconds: 40), for: device) }
        try await harness.database.insertActivityTokens(tokens, app: harness.tenant.app, activityID: "final")
        return tokens
    }

    /// Ends every worker session in the test's database, as a database restart would; returns how many.
    static func endSessions(_ database: TestDatabase) async throws -> Int {
        try await database.pool.query(
            """
            SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
            WHERE application_name = 'livegate-delivery-session' AND datname = current_database()
            """
        )[0].require("n")
    }
}
