import APNsSimulator
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import NIOConcurrencyHelpers
import PostgresClient
import TestSupport
import Testing

/// PostgreSQL stopped for 5 s under a `livegate serve` process taking message calls and token
/// registrations: every call answers 201 or 503 with `Retry-After` (never 500), every 201 was committed,
/// the gateway serves again within a second of the database, and delivery picks up where it paused.
@Suite("PostgreSQL stopped under load", .heavy, .requiresPostgres)
struct DatabaseOutageTests {
    static let devices = 100
    static let unavailableBody = #"{"errors":["PostgreSQL did not answer"],"message":"Database unavailable: retry after 2 seconds"}"#

    struct Call: Sendable {
        enum Kind: Sendable { case update, tag }
        let kind: Kind
        let started: ContinuousClock.Instant
        let ended: ContinuousClock.Instant
        let status: Int
        let retryAfter: String?
        let body: String
        /// The update's score, or the registered device.
        let subject: String
    }

    @Test func callsAnswer503WithRetryAfterAndEveryAcceptedOneWasCommitted() async throws {
        let cluster = try await DisposablePostgres.start()
        do {
            try await SimulatorFixture.with { fixture in
                try await cluster.withDatabase { database in
                    try await Self.outage(cluster, database, fixture)
                }
            }
        } catch {
            await cluster.remove()
            throw error
        }
        await cluster.remove()
    }

    static func outage(_ cluster: DisposablePostgres, _ database: TestDatabase, _ fixture: SimulatorFixture) async throws {
        let simulator = fixture.simulator
        let tenant = try await database.makeTenant(
            bundleID: APNsSimulatorTests.bundleID, endpoint: fixture.endpoint, credentials: fixture.credentials)
        let tokens = (0..<Self.devices).map { token(numbered: $0) }
        for device in tokens { simulator.setBehavior(.delay(milliseconds: 50), for: device) }
        try await database.insertActivityTokens(tokens, app: tenant.app, activityID: "final")
        let gateway = try await DeliveryCrashTests.startGateway(
            environment: LiveGateBinary.environment(
                databaseURL: cluster.connectionString,
                [
                    "LIVEGATE_APNS_CA_FILE": fixture.certificate.certificateFile, "LIVEGATE_DELIVERY_PAGE_SIZE": "20",
                    "LIVEGATE_DELIVERY_MAX_IN_FLIGHT": "10", "LIVEGATE_DELIVERY_POLL_MILLISECONDS": "100",
                    "LIVEGATE_LOOKUP_CACHE_SECONDS": "0",
                ]))
        defer { gateway.process.stop() }
        let base = "http://127.0.0.1:\(gateway.port)"

        let calls = NIOLockedValueBox<[Call]>([])
        let loading = NIOLockedValueBox(true)
        var started: ContinuousClock.Instant?
        var healthWhileDown: [CurlHTTPClient.Response] = []
        try await withThrowingTaskGroup(of: Void.self) { load in
            for client in 0..<4 {
                load.addTask {
                    var index = 0
                    while loading.withLockedValue({ $0 }) {
                        index += 1
                        let call = try await Self.call(base, tenant, client: client, index: index)
                        calls.withLockedValue { $0.append(call) }
                        try await Task.sleep(for: .milliseconds(20))
                    }
                }
            }
            try await Task.sleep(for: .seconds(2))
            // Stopped in the middle of a fan-out, so delivery has something to pause.
            try await DeliveryCrashTests.waitUntil("a dispatch is being delivered") {
                try await !database.pool.query("SELECT 1 FROM dispatches WHERE status = 'delivering'").isEmpty
            }
            try await cluster.stop()
            healthWhileDown.append(try await CurlHTTPClient.request("GET", "\(base)/healthz"))
            try await Task.sleep(for: .seconds(5))
            healthWhileDown.append(try await CurlHTTPClient.request("GET", "\(base)/healthz"))
            try await cluster.start()
            started = ContinuousClock.now
            try await Task.sleep(for: .seconds(3))
            loading.withLockedValue { $0 = false }
            try await load.waitForAll()
        }
        let backAt = try #require(started)
        let all = calls.withLockedValue { $0 }

        // Only 201 and 503, and every 503 says to come back, in JSON.
        #expect(Set(all.map(\.status)).isSubset(of: [201, 503]), "statuses: \(Set(all.map(\.status)))")
        for kind in [Call.Kind.update, .tag] {
            #expect(all.contains { $0.kind == kind && $0.status == 503 }, "\(kind) calls met the outage")
            #expect(all.contains { $0.kind == kind && $0.status == 201 && $0.ended < backAt }, "\(kind) accepted before")
            #expect(all.contains { $0.kind == kind && $0.status == 201 && $0.started > backAt }, "\(kind) accepted after")
        }
        for refused in all where refused.status == 503 {
            #expect(refused.retryAfter == "2")
            #expect(refused.body == Self.unavailableBody)
        }
        for health in healthWhileDown {
            #expect(health.status == 503)
            #expect(health.headers["retry-after"] == "2")
            #expect(health.text == Self.unavailableBody)
        }
        #expect(try await CurlHTTPClient.request("GET", "\(base)/healthz").status == 200)

        // Back within a second of the database: nothing asked a second after it came back is refused.
        let firstAccepted = try #require(all.filter { $0.status == 201 && $0.ended > backAt }.map(\.ended).min())
        #expect(firstAccepted - backAt < .seconds(1), "first 201 \(firstAccepted - backAt) after the database came back")
        let lateRefusals = all.filter { $0.status == 503 && $0.started > backAt + .seconds(1) }
        #expect(lateRefusals.isEmpty, "\(lateRefusals.count) calls refused over a second after the database came back")

        // Every 201 was committed.
        let scores = Set(
            try await database.pool.query(
                "SELECT payload::jsonb #>> '{aps,content-state,score}' AS score FROM dispatches"
            ).map { try $0.require("score", as: String.self) })
        let acceptedScores = all.filter { $0.kind == .update && $0.status == 201 }.map(\.subject)
        #expect(Set(acceptedScores).isSubset(of: scores), "every accepted update is a dispatch")
        let devices = Set(
            try await database.pool.query(
                "SELECT device_id FROM activity_tokens WHERE app_id = $1", [tenant.app.id]
            ).map { try $0.require("device_id", as: String.self) })
        let acceptedDevices = all.filter { $0.kind == .tag && $0.status == 201 }.map(\.subject)
        #expect(Set(acceptedDevices).isSubset(of: devices), "every accepted registration is stored")

        // Delivery paused and resumed: within seconds, not after a 60 s lease, nothing is left unfinished,
        // and every device ends on the newest score.
        try await DeliveryCrashTests.waitUntil("every dispatch has finished", timeout: .seconds(60)) {
            try await database.pool.query(
                "SELECT 1 FROM dispatches WHERE status IN ('pending', 'delivering')"
            ).isEmpty
        }
        let finished = ContinuousClock.now - backAt
        #expect(finished < .seconds(20), "every dispatch finished \(finished) after the database came back")
        // The newest is the last committed, which is not always the last answered: four clients post at
        // once, and one answer can be held up past the next commit's on a loaded machine.
        let newest = try #require(
            try await database.pool.query(
                "SELECT payload::jsonb #>> '{aps,content-state,score}' AS score FROM dispatches ORDER BY sequence DESC LIMIT 1"
            ).first?.require("score", as: String.self))
        #expect(acceptedScores.contains(newest))
        let last = try SupersessionDeliveryTests.lastStates(simulator)
        #expect(tokens.allSatisfy { last[$0] == newest }, "every device's last push holds the newest score")
    }

    /// One call by load client `client`: an update (odd `index`) or a token registration (even).
    static func call(_ base: String, _ tenant: Tenant, client: Int, index: Int) async throws -> Call {
        let started = ContinuousClock.now
        let kind: Call.Kind = index % 2 == 1 ? .update : .tag
        let subject = kind == .update ? "\(client)-\(index)" : "load-\(client)-\(index)"
        let response: CurlHTTPClient.Response
        switch kind {
        case .update:
            response = try await CurlHTTPClient.request(
                "POST", "\(base)/messages/live_activity/update",
                headers: ["Authorization": "Bearer \(tenant.secret)", "Content-Type": "application/json"],
                body: Data(#"{"app_id":"\#(tenant.app.identifier)","activity_id":"final","content_state":{"score":"\#(subject)"}}"#.utf8))
        case .tag:
            let pushToken = token(numbered: 1_000_000 * (client + 1) + index)
            response = try await CurlHTTPClient.request(
                "POST", "\(base)/push_token_tag", headers: ["Content-Type": "application/json"],
                body: Data(
                    #"{"app_id":"\#(tenant.app.identifier)","device_id":"\#(subject)","tag":"other","push_token":"\#(pushToken)"}"#.utf8))
        }
        return Call(
            kind: kind, started: started, ended: .now, status: response.status, retryAfter: response.headers["retry-after"],
            body: response.text, subject: subject)
    }
}
