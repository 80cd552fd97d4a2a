import APNsSimulator
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LiveGate
import LiveGateDomain
import LiveGateStore
import Logging
import NIOCore
import PostgresClient
import TestSupport
import Testing

/// The gateway as `livegate serve` builds it, on a primary that hangs: the fault proxy in front of the
/// tests' PostgreSQL freezes (every socket stays open, nothing answers, as a SIGSTOPped machine). Calls
/// must answer 503 with `Retry-After` by the deadline, `/healthz` must say so, and once the database
/// answers again the same process accepts and delivers, with nothing it accepted lost.
@Suite("A primary that hangs", .requiresPostgres)
struct FrozenPrimaryTests {
    static let deadlineSeconds = 4
    /// What a loaded machine may add to an answer beyond its deadline (the whole suite runs at once on
    /// two cores); `bench/failover` measures the real figure.
    static let slack: Duration = .seconds(2)

    @Test func callsAnswer503ByTheDeadlineAndTheGatewayCarriesOnWhenTheDatabaseAnswersAgain() async throws {
        try await SimulatorFixture.with { fixture in
            try await TestDatabase.with { database in
                let tenant = try await database.makeTenant(
                    bundleID: APNsSimulatorTests.bundleID, endpoint: fixture.endpoint, credentials: fixture.credentials)
                try await database.insertActivityTokens([token(numbered: 1)], app: tenant.app, activityID: "order-1")
                let primary = try PostgresFaultProxy.inFrontOfTestPostgres()
                defer { primary.close() }
                let settings = try GatewaySettings(
                    SettingsReader([
                        "DATABASE_URL": primary.connectionString(through: database.connectionString),
                        "LIVEGATE_APNS_CA_FILE": fixture.certificate.certificateFile, "LIVEGATE_DELIVERY_POLL_MILLISECONDS": "50",
                        "LIVEGATE_METRICS": "off", "LIVEGATE_DB_TIMEOUT_SECONDS": String(Self.deadlineSeconds),
                    ]), port: 0)
                let pool = PostgresConnectionPool(configuration: settings.database, logger: .init(label: "test.pool"))
                let gateway = Gateway.build(settings: settings, pool: pool, metricsRegistry: nil, logger: .quiet)
                try await gateway.test(.live) { client in
                    var accepted: [String] = []
                    let first = try await Self.updateUntilAccepted(client, tenant, n: 1)
                    accepted += first.map { [$0] } ?? []
                    try await Self.waitUntil { fixture.simulator.received.count == 1 }

                    primary.freeze()
                    // Every call, however many at once (each on its own connection), has its answer within the
                    // deadline and a second.
                    let base = "http://127.0.0.1:\(try #require(client.port))"
                    let answers = try await withThrowingTaskGroup(of: (Int, String?, Duration).self) { group in
                        for n in 2...7 {
                            group.addTask {
                                let started = ContinuousClock.now
                                let answer = try await CurlHTTPClient.request(
                                    "POST", base + "/messages/live_activity/update",
                                    headers: ["Authorization": "Bearer \(tenant.secret)", "Content-Type": "application/json"],
                                    body: Data(Self.body(tenant, n: n).utf8))
                                return (answer.status, answer.headers["retry-after"], ContinuousClock.now - started)
                            }
                        }
                        group.addTask {
                            let started = ContinuousClock.now
                            let health = try await CurlHTTPClient.request("GET", base + "/healthz")
                            return (health.status, health.headers["retry-after"], ContinuousClock.now - started)
                        }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                    #expect(answers.allSatisfy { $0.0 == 503 && $0.1 != nil }, "\(answers)")
                    #expect(answers.allSatisfy { $0.2 < .seconds(Self.deadlineSeconds) + Self.slack }, "\(answers.map(\.2))")

                    primary.thaw()
                    // The same process, no restart: accepted again, and delivered.
                    let again = try await Self.updateUntilAccepted(client, tenant, n: 8)
                    accepted += again.map { [$0] } ?? []
                    try await Self.waitUntil {
                        fixture.simulator.received.contains { String(decoding: $0.payload, as: UTF8.self).contains(#""n":8"#) }
                    }
                    // Every dispatch accepted was kept and ends: the last one done, the first done or, when the
                    // freeze caught its ending, superseded by the last (its push had gone).
                    let ended = ContinuousClock.now + .seconds(60)
                    var statuses: [String] = []
                    func settled() -> Bool { statuses.count == 2 && statuses[1] == "done" && ["done", "superseded"].contains(statuses[0]) }
                    repeat {
                        statuses = try await database.pool.query(
                            "SELECT status FROM dispatches WHERE id = ANY($1::uuid[]) ORDER BY created_at", [accepted]
                        ).map { try $0.require("status", as: String.self) }
                        if !settled() { try await Task.sleep(for: .milliseconds(200)) }
                    } while !settled() && ContinuousClock.now < ended
                    #expect(settled(), "\(statuses)")
                    let healthy = try await client.execute(uri: "/healthz", method: .get)
                    #expect(healthy.status == .ok)
                }
            }
        }
    }

    static func update(
        _ client: some TestClientProtocol, _ tenant: Tenant, n: Int
    ) async throws -> (status: HTTPResponse.Status, dispatchID: String?, retryAfter: String?) {
        let response = try await client.execute(
            uri: "/messages/live_activity/update", method: .post, headers: .bearer(tenant.secret).merging(.json),
            body: ByteBuffer(string: body(tenant, n: n)))
        let body = try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
        return (response.status, body?["dispatch_id"] as? String, response.headers[.retryAfter])
    }

    /// The update's dispatch id once it got a 201 (a 503 is asked again, for 30 s at most).
    static func updateUntilAccepted(_ client: some TestClientProtocol, _ tenant: Tenant, n: Int) async throws -> String? {
        let giveUp = ContinuousClock.now + .seconds(30)
        while true {
            let answer = try await update(client, tenant, n: n)
            if answer.status == .created { return answer.dispatchID }
            guard answer.status == .serviceUnavailable, ContinuousClock.now < giveUp else {
                Issue.record("update \(n) answered \(answer.status)")
                return nil
            }
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    static func body(_ tenant: Tenant, n: Int) -> String {
        #"{"app_id":"\#(tenant.app.identifier)","activity_id":"order-1","content_state":{"n":\#(n)}}"#
    }

    static func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(condition())
    }
}
