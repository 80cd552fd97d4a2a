import APNsSimulator
import Foundation
import LiveGateDomain
import NIOConcurrencyHelpers
import PostgresClient
import TestSupport
import Testing

/// `livegate serve` on the reference Patroni cluster (synchronous mode, ttl 10 s) with a multi-host
/// `DATABASE_URL`, under a steady load of updates to a few activities, its primary killed (a machine that
/// dies) or frozen (a machine that hangs, sockets open; thawed while the load still runs, so the old
/// primary comes back writable until its Patroni demotes it). Every answer is a 201 or a 503 with
/// `Retry-After` by the deadline, writes come back on the new primary, the same process carries on, and
/// nothing it accepted is lost: each device ends on its activity's newest committed state.
/// `bench/failover` runs the same at a larger scale.
@Suite(
    "Following a Patroni failover", .serialized, .heavy,
    .enabled(if: PatroniCluster.testsEnabled, "needs Patroni and etcd: LIVEGATE_HA_TESTS=1, as the README's test command sets"))
struct PatroniFailoverTests {
    enum Fault: String, Sendable, CaseIterable {
        case kill, freeze
    }

    static let deadlineSeconds = 4
    /// What the machine may add to an answer beyond its deadline: three PostgreSQL members, their Patroni,
    /// etcd, the gateway and the test share two cores. `bench/failover` holds the gateway to a second.
    static let slack: Duration = .seconds(2)
    static let activities = 10
    static let clients = 4

    struct Answer: Sendable {
        let started: ContinuousClock.Instant
        let ended: ContinuousClock.Instant
        let status: Int
        let retryAfter: String?
        let dispatchID: String?

        var took: Duration { ended - started }
    }

    @Test(arguments: Fault.allCases)
    func theGatewayFollowsTheNewPrimaryAndLosesNothingItAccepted(fault: Fault) async throws {
        let cluster = try await PatroniCluster.up()
        do {
            try await SimulatorFixture.with { fixture in
                try await cluster.withDatabase { database in
                    try await Self.failOver(fault, cluster, database, fixture)
                }
            }
        } catch {
            await cluster.down()
            throw error
        }
        await cluster.down()
    }

    static func failOver(_ fault: Fault, _ cluster: PatroniCluster, _ database: TestDatabase, _ fixture: SimulatorFixture) async throws {
        let tenant = try await database.makeTenant(
            bundleID: APNsSimulatorTests.bundleID, endpoint: fixture.endpoint, credentials: fixture.credentials)
        let tokens = (0..<activities).map { token(numbered: $0) }
        try await database.pool.query(
            """
            INSERT INTO activity_tokens (app_id, activity_id, device_id, push_token)
            SELECT $1, 'ha-' || (i - 1), 'device-' || (i - 1), t FROM unnest($2::text[]) WITH ORDINALITY AS d(t, i)
            """, [tenant.app.id, tokens])
        let gateway = try await GatewayProcess.start(
            environment: LiveGateBinary.environment(
                databaseURL: cluster.url,
                [
                    "LIVEGATE_APNS_CA_FILE": fixture.certificate.certificateFile,
                    "LIVEGATE_DB_TIMEOUT_SECONDS": String(deadlineSeconds), "LIVEGATE_DELIVERY_POLL_MILLISECONDS": "100",
                ]))
        defer { gateway.process.stop() }
        let base = "http://127.0.0.1:\(gateway.port)"

        let answers = NIOLockedValueBox<[Answer]>([])
        let health = NIOLockedValueBox<[Answer]>([])
        let loading = NIOLockedValueBox(true)
        let counter = NIOLockedValueBox(0)
        var faultAt = ContinuousClock.now
        var backAt: ContinuousClock.Instant?
        var gatewayLived = true
        try await withThrowingTaskGroup(of: Void.self) { load in
            for _ in 0..<clients {
                load.addTask {
                    while loading.withLockedValue({ $0 }) {
                        let n = counter.withLockedValue { counter in
                            counter += 1
                            return counter
                        }
                        let answer = try await update(base, tenant, n: n)
                        answers.withLockedValue { $0.append(answer) }
                        try await Task.sleep(for: .milliseconds(100))
                    }
                }
            }
            load.addTask {
                while loading.withLockedValue({ $0 }) {
                    let started = ContinuousClock.now
                    let response = try await CurlHTTPClient.request("GET", "\(base)/healthz")
                    health.withLockedValue {
                        $0.append(
                            Answer(
                                started: started, ended: .now, status: response.status, retryAfter: response.headers["retry-after"],
                                dispatchID: nil))
                    }
                    try await Task.sleep(for: .milliseconds(250))
                }
            }
            try await Task.sleep(for: .seconds(4))
            switch fault {
            case .kill: try await cluster.killLeader()
            case .freeze: try await cluster.freezeLeader()
            }
            // From when every process of the member is dead or stopped: a call started while the script
            // looked the leader up could still be accepted by it.
            faultAt = .now
            let giveUp = faultAt + .seconds(40)
            while backAt == nil, ContinuousClock.now < giveUp {
                backAt = answers.withLockedValue { all in
                    all.filter { $0.status == 201 && $0.started > faultAt }.map(\.ended).min()
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            if fault == .freeze {
                // The old primary thawed under load: writable for a moment until its Patroni sees the lock
                // held by another member and demotes it; a write it takes can never commit (synchronous
                // mode waits for a standby that follows the new leader), so it must not be a 201.
                try await Task.sleep(for: .seconds(2))
                try await cluster.thaw()
            }
            try await Task.sleep(for: .seconds(6))
            gatewayLived = !gateway.process.hasExited
            loading.withLockedValue { $0 = false }
            try await load.waitForAll()
        }
        let all = answers.withLockedValue { $0 }
        let probes = health.withLockedValue { $0 }

        #expect(gatewayLived, "the gateway process lived through the fault")
        #expect(Set(all.map(\.status)).isSubset(of: [201, 503]), "statuses: \(Set(all.map(\.status)))")
        #expect(all.filter { $0.status == 503 }.allSatisfy { $0.retryAfter != nil }, "every 503 says when to come back")
        #expect(all.contains { $0.status == 201 && $0.ended < faultAt }, "accepted before the fault")
        #expect(all.contains { $0.status == 503 }, "the fault was met")
        let late = (all + probes).filter { $0.took > .seconds(deadlineSeconds) + slack }
        #expect(late.isEmpty, "answered past the deadline: \(late.map { "\($0.status) in \($0.took)" })")
        let back = try #require(backAt, "writes came back within 40 s of the fault")
        #expect(back - faultAt < .seconds(30), "writes back \(back - faultAt) after the fault")
        #expect(
            probes.contains { $0.status == 503 && $0.started > faultAt && $0.ended < back },
            "/healthz said the database was unreachable: \(probes.filter { $0.started > faultAt }.map { "\($0.status) at \($0.started - faultAt)" }), writes back at \(back - faultAt), 503s \(all.filter { $0.status == 503 }.map { $0.started - faultAt })"
        )

        // The cluster settles on one primary; the gateway's own view of it answers 200.
        try await cluster.waitForOnePrimary()
        try await GatewayProcess.waitUntil("the gateway is healthy", timeout: .seconds(30)) {
            (try? await CurlHTTPClient.request("GET", "\(base)/healthz"))?.status == 200
        }
        try await GatewayProcess.waitUntil("every dispatch has ended", timeout: .seconds(90)) {
            (try? await database.pool.query("SELECT 1 FROM dispatches WHERE status IN ('pending', 'delivering')").isEmpty) == true
        }
        let kept = try await database.pool.query("SELECT id::text AS id, status FROM dispatches")
        let statuses = Dictionary(
            uniqueKeysWithValues: try kept.map { (try $0.require("id", as: String.self), try $0.require("status", as: String.self)) })
        let accepted = all.compactMap(\.dispatchID)
        #expect(accepted.count == all.filter { $0.status == 201 }.count)
        let lost = accepted.filter { statuses[$0] == nil }
        #expect(lost.isEmpty, "201'd dispatches missing from the new primary: \(lost)")
        let unfinished = accepted.filter { !["done", "superseded"].contains(statuses[$0] ?? "") }
        #expect(unfinished.isEmpty, "201'd dispatches that neither went nor gave way: \(unfinished.map { statuses[$0] ?? "none" })")

        // Every device ends on its activity's newest committed update.
        let newest = try await database.pool.query(
            """
            SELECT DISTINCT ON (activity_id) activity_id, payload::jsonb #>> '{aps,content-state,n}' AS n
            FROM dispatches ORDER BY activity_id, sequence DESC
            """)
        #expect(newest.count == activities, "every activity was updated")
        let last = try SupersessionDeliveryTests.lastStates(fixture.simulator, key: "n")
        for row in newest {
            let activity = try row.require("activity_id", as: String.self)
            let index = try #require(Int(activity.dropFirst("ha-".count)))
            let state = try row.require("n", as: String.self)
            #expect(
                last[tokens[index]] == state, "\(activity): the device shows \(last[tokens[index]] ?? "nothing"), the newest is \(state)")
        }
    }

    static func update(_ base: String, _ tenant: Tenant, n: Int) async throws -> Answer {
        let started = ContinuousClock.now
        let response = try await CurlHTTPClient.request(
            "POST", "\(base)/messages/live_activity/update",
            headers: ["Authorization": "Bearer \(tenant.secret)", "Content-Type": "application/json"],
            body: Data(
                #"{"app_id":"\#(tenant.app.identifier)","activity_id":"ha-\#(n % activities)","content_state":{"n":"\#(n)"}}"#.utf8))
        return Answer(
            started: started, ended: .now, status: response.status, retryAfter: response.headers["retry-after"],
            dispatchID: response.status == 201 ? response.json?["dispatch_id"] as? String : nil)
    }
}
