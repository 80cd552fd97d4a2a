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

/// `livegate serve` killed with SIGKILL in the middle of a fan-out, with the default 60 s lease: the rest
/// of the devices get their push within seconds, from the restarted gateway or from another one, because
/// the dead process's worker session ended with it.
@Suite("Crash takeover in seconds, not after the lease", .heavy, .requiresPostgres)
struct CrashTakeoverTests {
    static let devices = 300
    /// Taken over, and every device served, within this of the restart (from when the restarted gateway
    /// answers), or of the crash when another gateway is already running: a few seconds on an idle
    /// machine, with room for a saturated one. A busy machine also sends more slowly, so the bound for
    /// every device served grows by what the rest of the fan-out takes at the pace its first half went
    /// (about half a second on an idle machine, at most 20 s); a lease would only free the dispatch 40
    /// to 60 s after the crash.
    static let bound = Duration.seconds(20)

    @Test func aRestartedGatewayResumesADispatchItsDeadSelfHeld() async throws {
        try await Self.withSlowFanOut { database, tenant, simulator, environment in
            let first = try await DeliveryCrashTests.startGateway(environment: environment)
            let pace = try await Self.updateAndCrashHalfway(first, tenant: tenant, simulator: simulator)

            let second = try await DeliveryCrashTests.startGateway(environment: environment)
            defer { second.process.stop() }
            // Restarted once it answers: how long a process takes to start is the machine's, not delivery's.
            let restarted = ContinuousClock.now
            try await Self.waitForTakeover(database, since: restarted)
            try await DeliveryCrashTests.waitUntil("every device got the push", timeout: .seconds(90)) {
                Self.served(simulator) == Self.devices
            }
            let took = ContinuousClock.now - restarted
            #expect(took < Self.bound + pace, "every device served \(took) after the restart (the lease is 60 s)")
            try await Self.expectDoneExactlyOnce(database, attempts: 2)
        }
    }

    @Test func anotherRunningGatewayTakesOverFromADeadOne() async throws {
        try await Self.withSlowFanOut { database, tenant, simulator, environment in
            let gateways = [
                try await DeliveryCrashTests.startGateway(environment: environment),
                try await DeliveryCrashTests.startGateway(environment: environment),
            ]
            defer { for gateway in gateways { gateway.process.stop() } }
            // Whichever gateway claimed it (`host/pid/suffix`) is the one to kill.
            let pace = try await Self.updateAndCrashHalfway(gateways[0], tenant: tenant, simulator: simulator) {
                let owner: String = try await database.pool.query("SELECT leased_by FROM dispatches")[0].require("leased_by")
                return try #require(gateways.first { owner.contains("/\($0.process.pid)/") }).process
            }
            let crashed = ContinuousClock.now
            try await Self.waitForTakeover(database, since: crashed)

            try await DeliveryCrashTests.waitUntil("every device got the push", timeout: .seconds(90)) {
                Self.served(simulator) == Self.devices
            }
            let took = ContinuousClock.now - crashed
            #expect(took < Self.bound + pace, "every device served \(took) after the crash (the lease is 60 s)")
            try await Self.expectDoneExactlyOnce(database, attempts: 2)
        }
    }

    /// 300 devices under "final" whose pushes APNs answers in 100 ms, a gateway environment with the
    /// default lease and 30 pushes in flight: a fan-out of about a second when nothing goes wrong, spent
    /// waiting for answers rather than computing, so a busy machine stretches it little.
    static func withSlowFanOut(
        _ body: (TestDatabase, Tenant, APNsSimulator, [String: String]) async throws -> Void
    ) async throws {
        try await SimulatorFixture.with { fixture in
            let tokens = (0..<Self.devices).map { token(numbered: $0) }
            for device in tokens { fixture.simulator.setBehavior(.delay(milliseconds: 400), for: device) }
            try await TestDatabase.with { database in
                let tenant = try await database.makeTenant(
                    bundleID: APNsSimulatorTests.bundleID, endpoint: fixture.endpoint, credentials: fixture.credentials)
                try await database.insertActivityTokens(tokens, app: tenant.app, activityID: "final")
                let environment = LiveGateBinary.environment(
                    databaseURL: database.connectionString,
                    [
                        "LIVEGATE_APNS_CA_FILE": fixture.certificate.certificateFile, "LIVEGATE_DELIVERY_PAGE_SIZE": "30",
                        "LIVEGATE_DELIVERY_MAX_IN_FLIGHT": "30", "LIVEGATE_DELIVERY_POLL_MILLISECONDS": "100",
                    ])
                #expect(environment["LIVEGATE_DELIVERY_LEASE_SECONDS"] == nil, "the default 60 s lease")
                try await body(database, tenant, fixture.simulator, environment)
                #expect(Set(fixture.simulator.received.map(\.deviceToken)) == Set(tokens))
            }
        }
    }

    /// Posts the update to `gateway`, kills the delivering gateway (`gateway` unless told) with SIGKILL
    /// once half the devices have their push, and returns how long the other half would take at the
    /// pace the first half went.
    static func updateAndCrashHalfway(
        _ gateway: (process: BackgroundProcess, port: Int), tenant: Tenant, simulator: APNsSimulator,
        deliverer: (() async throws -> BackgroundProcess)? = nil
    ) async throws -> Duration {
        let response = try await CurlHTTPClient.request(
            "POST", "http://127.0.0.1:\(gateway.port)/messages/live_activity/update",
            headers: ["Authorization": "Bearer \(tenant.secret)", "Content-Type": "application/json"],
            body: Data(#"{"app_id":"\#(tenant.app.identifier)","activity_id":"final","content_state":{"home":2,"away":1}}"#.utf8))
        #expect(response.status == 201)
        let accepted = ContinuousClock.now
        try await DeliveryCrashTests.waitUntil("half the devices got the push") { Self.served(simulator) >= Self.devices / 2 }
        let victim = try await deliverer?() ?? gateway.process
        victim.stop(signal: SIGKILL)
        let served = Self.served(simulator)
        #expect(served < Self.devices, "the crash came in the middle of the fan-out")
        let pace = (ContinuousClock.now - accepted) * Double(Self.devices - served) / Double(max(served, 1))
        // A lease renewed every 20 s runs out 40 to 60 s after a crash: the bound must stay below that.
        return min(pace, .seconds(20))
    }

    /// The dispatch claimed a second time: by far the most of the bound, the rest is sending.
    static func waitForTakeover(_ database: TestDatabase, since start: ContinuousClock.Instant) async throws {
        try await DeliveryCrashTests.waitUntil("the dispatch is taken over", timeout: .seconds(90)) {
            try await database.pool.query("SELECT attempts FROM dispatches")[0].require("attempts", as: Int.self) == 2
        }
        let took = ContinuousClock.now - start
        #expect(took < bound, "taken over \(took) after the gateway died or came back (the lease is 60 s)")
    }

    static func served(_ simulator: APNsSimulator) -> Int {
        Set(simulator.received.map(\.deviceToken)).count
    }

    /// Done, every page recorded once, claimed once by the dead gateway and once by its successor.
    static func expectDoneExactlyOnce(_ database: TestDatabase, attempts: Int) async throws {
        try await DeliveryCrashTests.waitUntil("the dispatch is done") {
            (try? await database.pool.query("SELECT status FROM dispatches")[0].require("status", as: String.self)) == "done"
        }
        let row = try await database.pool.query("SELECT sent_count, failed_count, attempts FROM dispatches")[0]
        #expect(try row.require("sent_count", as: Int.self) == Self.devices, "each page recorded exactly once")
        #expect(try row.require("failed_count", as: Int.self) == 0)
        #expect(try row.require("attempts", as: Int.self) == attempts)
    }
}
