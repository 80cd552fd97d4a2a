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

@Suite("Delivery survives a crash", .heavy, .requiresPostgres)
struct DeliveryCrashTests {
    static let devices = 2_000

    /// SIGKILL `livegate serve` in the middle of a 2,000-device fan-out, start another: every device
    /// gets the push (the devices of at most two pages twice, which APNs' timestamps make harmless),
    /// none is missed, and the dispatch's counts come out exact.
    @Test func aGatewayKilledMidFanOutLosesNoPush() async throws {
        try await SimulatorFixture.with { fixture in
            let simulator = fixture.simulator
            let tokens = (0..<Self.devices).map { token(numbered: $0) }
            // Slow answers and few pushes in flight stretch the fan-out over about two seconds.
            for device in tokens { simulator.setBehavior(.delay(milliseconds: 20), for: device) }
            try await Self.crashAndResume(fixture, tokens: tokens)
        }
    }

    static func crashAndResume(_ fixture: SimulatorFixture, tokens: [String]) async throws {
        let simulator = fixture.simulator
        let certificate = fixture.certificate
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant(
                bundleID: APNsSimulatorTests.bundleID, endpoint: fixture.endpoint, credentials: fixture.credentials)
            try await database.insertActivityTokens(tokens, app: tenant.app, activityID: "final")
            let environment = LiveGateBinary.environment(
                databaseURL: database.connectionString,
                [
                    "LIVEGATE_APNS_CA_FILE": certificate.certificateFile, "LIVEGATE_DELIVERY_LEASE_SECONDS": "2",
                    "LIVEGATE_DELIVERY_PAGE_SIZE": "100", "LIVEGATE_DELIVERY_MAX_IN_FLIGHT": "20",
                    "LIVEGATE_DELIVERY_POLL_MILLISECONDS": "100",
                ])

            let first = try await Self.startGateway(environment: environment)
            let response = try await CurlHTTPClient.request(
                "POST", "http://127.0.0.1:\(first.port)/messages/live_activity/update",
                headers: ["Authorization": "Bearer \(tenant.secret)", "Content-Type": "application/json"],
                body: Data(#"{"app_id":"\#(tenant.app.identifier)","activity_id":"final","content_state":{"home":2,"away":1}}"#.utf8))
            #expect(response.status == 201)
            try await Self.waitUntil("a few hundred pushes arrived") { Set(simulator.received.map(\.deviceToken)).count >= 300 }
            first.process.stop(signal: SIGKILL)
            let atCrash = Set(simulator.received.map(\.deviceToken)).count
            #expect(atCrash < Self.devices, "the crash came in the middle of the fan-out")

            let second = try await Self.startGateway(environment: environment)
            defer { second.process.stop() }
            try await Self.waitUntil("every device got the push", timeout: .seconds(60)) {
                Set(simulator.received.map(\.deviceToken)).count == Self.devices
            }
            #expect(Set(simulator.received.map(\.deviceToken)) == Set(tokens))
            // The new owner resumes after the last recorded page: the two pages of 100 the dead gateway
            // was recording or sending may go out again, nothing before them.
            #expect(simulator.received.count - Self.devices <= 200, "at most two pages sent twice")
            try await Self.waitUntil("the dispatch is done") {
                (try? await database.pool.query("SELECT status FROM dispatches")[0].require("status", as: String.self)) == "done"
            }
            let row = try await database.pool.query("SELECT sent_count, failed_count, attempts FROM dispatches")[0]
            #expect(try row.require("sent_count", as: Int.self) == Self.devices, "each page recorded exactly once")
            #expect(try row.require("failed_count", as: Int.self) == 0)
            #expect(try row.require("attempts", as: Int.self) == 2, "claimed once by each gateway")
        }
    }

    /// SIGKILL `livegate serve` while a batch of 40 small dispatches (one device each, answers held 3 s)
    /// is in flight, start another: every dispatch is taken over at once (the dead gateway's session
    /// ended with it) and ends done, counted once; none is left claimed; every device has its update.
    @Test func aGatewayKilledMidBatchOfSmallDispatchesLosesNone() async throws {
        try await Self.killMidBatch(
            devices: (0..<40).map { token(numbered: 50_000 + $0) },
            register: { database, tenant, index, device in
                try await database.insertActivityTokens([device], app: tenant.app, activityID: "order-\(index)")
            },
            request: { tenant, index in
                (
                    "update",
                    #"{"app_id":"\#(tenant.app.identifier)","activity_id":"order-\#(index)","content_state":{"eta":"12:\#(index)"}}"#
                )
            })
    }

    /// The same for starts, handed to the engine at their commit: 20 starts, each for its own user's
    /// push-to-start token; every start ends done with its one target answered.
    @Test func aGatewayKilledMidBatchOfStartsLosesNone() async throws {
        try await Self.killMidBatch(
            devices: (0..<20).map { token(numbered: 60_000 + $0) },
            register: { database, tenant, index, device in
                try await database.registerPushToStart(
                    tenant, type: "OrderAttributes", device: "phone-\(index)", token: device, externalID: "buyer-\(index)")
            },
            request: { tenant, index in
                (
                    "start",
                    #"{"app_id":"\#(tenant.app.identifier)","activity_id":"order-\#(index)","#
                        + #""activity_attributes_type":"OrderAttributes","activity_attributes":{},"#
                        + #""content_state":{"eta":"12:\#(index)"},"notification":{"alert":{"title":"t","body":"b"}},"#
                        + #""external_user_ids":["buyer-\#(index)"]}"#
                )
            },
            then: { database, devices async throws in
                #expect(try await database.count("SELECT count(*) FROM dispatch_targets WHERE apns_status = 200") == devices)
            })
    }

    /// One device per dispatch (`register`, answers held 3 s), one call each (`request`: the message
    /// kind and its body, whose content-state carries "12:<index>"), SIGKILL once every push is out,
    /// then another gateway: every dispatch ends done, counted once, taken over if the first had not
    /// finished it, nothing left claimed, every device served once or twice with its own state.
    static func killMidBatch(
        devices: [String],
        register: @escaping @Sendable (TestDatabase, Tenant, Int, String) async throws -> Void,
        request: @escaping @Sendable (Tenant, Int) -> (kind: String, body: String),
        then: @escaping @Sendable (TestDatabase, Int) async throws -> Void = { _, _ in }
    ) async throws {
        try await SimulatorFixture.with { fixture in
            let simulator = fixture.simulator
            for device in devices { simulator.setBehavior(.delay(milliseconds: 3_000), for: device) }
            try await TestDatabase.with { database in
                let tenant = try await database.makeTenant(
                    bundleID: APNsSimulatorTests.bundleID, endpoint: fixture.endpoint, credentials: fixture.credentials)
                for (index, device) in devices.enumerated() { try await register(database, tenant, index, device) }
                let environment = LiveGateBinary.environment(
                    databaseURL: database.connectionString,
                    ["LIVEGATE_APNS_CA_FILE": fixture.certificate.certificateFile, "LIVEGATE_DELIVERY_POLL_MILLISECONDS": "100"])
                // The first gateway's connections carry a name of their own, to see when they are gone.
                let first = try await Self.startGateway(
                    environment: environment.merging(["DATABASE_URL": database.connectionString + " application_name=killed-gateway"]) {
                        $1
                    })
                for index in devices.indices {
                    let (kind, body) = request(tenant, index)
                    let response = try await CurlHTTPClient.request(
                        "POST", "http://127.0.0.1:\(first.port)/messages/live_activity/\(kind)",
                        headers: ["Authorization": "Bearer \(tenant.secret)", "Content-Type": "application/json"],
                        body: Data(body.utf8))
                    #expect(response.status == 201)
                }
                try await Self.waitUntil("every push is out, its answer held") { simulator.received.count >= devices.count }
                first.process.stop(signal: SIGKILL)
                // A COMMIT the gateway sent before it died still takes effect: read what it finished once
                // PostgreSQL has ended every session of the dead gateway.
                try await Self.waitUntil("the killed gateway's sessions are gone") {
                    try await database.count(
                        "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'killed-gateway' AND datname = current_database()")
                        == 0
                }
                // On a loaded machine the first answers can come back before the last call is even
                // accepted: those dispatches are done by the first gateway, rightly, and not taken over.
                let finishedBefore = Set(
                    try await database.pool.query("SELECT id FROM dispatches WHERE status = 'done'").map {
                        try $0.require("id", as: UUID.self)
                    })
                #expect(finishedBefore.count < devices.count, "the crash came before the batch was recorded")

                let second = try await Self.startGateway(environment: environment)
                defer { second.process.stop() }
                try await Self.waitUntil("every dispatch is done", timeout: .seconds(90)) {
                    let open = try await database.pool.query("SELECT count(*)::int AS n FROM dispatches WHERE status <> 'done'")
                    return try open[0].require("n", as: Int.self) == 0
                }
                let rows = try await database.pool.query("SELECT id, sent_count, failed_count, attempts, leased_by FROM dispatches")
                #expect(rows.count == devices.count)
                for row in rows {
                    #expect(try row.require("sent_count", as: Int.self) == 1, "counted once")
                    #expect(try row.require("failed_count", as: Int.self) == 0)
                    if try !finishedBefore.contains(row.require("id", as: UUID.self)) {
                        #expect(try row.require("attempts", as: Int.self) >= 2, "taken over by the second gateway")
                    }
                    #expect(try row.decode("leased_by", as: String.self) == nil, "nothing left claimed")
                }
                for (index, device) in devices.enumerated() {
                    let pushes = simulator.received.filter { $0.deviceToken == device }
                    #expect((1...2).contains(pushes.count), "\(device.suffix(8)) got \(pushes.count) pushes")
                    #expect(pushes.allSatisfy { String(decoding: $0.payload, as: UTF8.self).contains("12:\(index)") })
                }
                try await then(database, devices.count)
            }
        }
    }

    static func startGateway(environment: [String: String]) async throws -> (process: BackgroundProcess, port: Int) {
        try await GatewayProcess.start(environment: environment)
    }

    static func waitUntil(
        _ what: String, timeout: Duration = .seconds(30), _ condition: () async throws -> Bool
    ) async throws {
        try await GatewayProcess.waitUntil(what, timeout: timeout, condition)
    }
}
