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

/// `GET /metrics` of real `livegate serve` processes, delivering through the APNs simulator: each metric
/// moves by exactly what happened, and no tenant's identifier or secret shows anywhere in a scrape.
@Suite("Metrics of a running gateway", .heavy, .requiresPostgres)
struct MetricsEndpointTests {
    static let activityID = "activity-metrics-7f3a"

    /// The activity has a broadcast channel and five devices: the broadcast is answered 200; three devices
    /// answer 200, one 410 (its token is removed), one 503 once and 200 on the retry. The same update is
    /// sent again with its Idempotency-Key: a replay is answered, not accepted again.
    @Test func oneUpdateToFiveDevicesMovesEachMetricByWhatHappened() async throws {
        try await SimulatorFixture.with { fixture in
            let simulator = fixture.simulator
            let tokens = (0..<5).map { token(numbered: 7_000 + $0) }
            simulator.setBehavior(.unregistered, for: tokens[3])
            simulator.setBehavior(.failFirst(times: 1, status: 503, reason: "ServiceUnavailable"), for: tokens[4])
            try await TestDatabase.with { database in
                let tenant = try await database.makeTenant(
                    bundleID: APNsSimulatorTests.bundleID, endpoint: fixture.endpoint, credentials: fixture.credentials)
                try await database.insertActivityTokens(tokens, app: tenant.app, activityID: Self.activityID)
                let gateway = try await DeliveryCrashTests.startGateway(
                    environment: LiveGateBinary.environment(
                        databaseURL: database.connectionString,
                        [
                            "LIVEGATE_APNS_CA_FILE": fixture.certificate.certificateFile,
                            "LIVEGATE_DELIVERY_POLL_MILLISECONDS": "100",
                        ]))
                defer { gateway.process.stop() }
                let base = "http://127.0.0.1:\(gateway.port)"
                let channel = try await CurlHTTPClient.request(
                    "POST", "\(base)/live_activity/channels",
                    headers: ["Authorization": "Bearer \(tenant.secret)", "Content-Type": "application/json"],
                    body: Data(#"{"app_id":"\#(tenant.app.identifier)","activity_id":"\#(Self.activityID)"}"#.utf8))
                #expect(channel.status == 201, "\(channel.text)")
                let channelID = try #require(channel.json?["channel_id"] as? String)
                let before = try await PrometheusScrape.scrape("\(base)/metrics")

                let first = try await Self.update(base, tenant, idempotencyKey: "metrics-key-1")
                #expect(first.status == 201)
                let dispatchID = try #require(first.json?["dispatch_id"] as? String)
                let replay = try await Self.update(base, tenant, idempotencyKey: "metrics-key-1")
                #expect(replay.status == 201)
                #expect(replay.headers["idempotent-replayed"] == "true")
                let resource = try await CurlHTTPClient.request(
                    "GET", "\(base)/messages/live_activity/dispatches/\(dispatchID)",
                    headers: ["Authorization": "Bearer \(tenant.secret)"])
                #expect(resource.status == 200)
                // A path no route serves, holding something that looks like an id; a method outside the
                // standard nine, on a path that does not serve it.
                let unmatched = UUID().uuidString.lowercased()
                #expect(try await CurlHTTPClient.request("GET", "\(base)/no/such/\(unmatched)").status == 404)
                #expect(try await CurlHTTPClient.request("PROPFIND", "\(base)/healthz").status == 405)

                try await DeliveryCrashTests.waitUntil("the dispatch is done", timeout: .seconds(60)) {
                    try await database.pool.query("SELECT status FROM dispatches")[0].require("status", as: String.self) == "done"
                }
                // The histogram is recorded just after the dispatch is marked done; the HTTP counters
                // once each answer's last byte is written: wait for them, then check each is exact.
                let requests: [([String: String], Double)] = [
                    (["route": "/messages/live_activity/update", "method": "POST", "status": "201"], 2),
                    (["route": "/messages/live_activity/dispatches/{dispatch_id}", "method": "GET", "status": "200"], 1),
                    (["route": "unmatched", "method": "GET", "status": "404"], 1),
                    (["route": "unmatched", "method": "_OTHER", "status": "405"], 1),
                ]
                var after = try await PrometheusScrape.scrape("\(base)/metrics")
                try await DeliveryCrashTests.waitUntil("the delivery and the requests are counted") {
                    after = try await PrometheusScrape.scrape("\(base)/metrics")
                    return after.delta("livegate_dispatch_delivery_duration_seconds_count", ["event": "update"], since: before) >= 1
                        && requests.allSatisfy { after.delta("livegate_http_requests_total", $0, since: before) >= $1 }
                }

                #expect(after.delta("livegate_messages_accepted_total", ["event": "update"], since: before) == 1)
                #expect(after.value("livegate_messages_accepted_total", ["event": "start"]) == 0)
                let device = ["kind": "device"]
                #expect(after.delta("livegate_apns_pushes_total", ["kind": "device", "status": "200"], since: before) == 4)
                #expect(after.delta("livegate_apns_pushes_total", ["kind": "device", "status": "410"], since: before) == 1)
                #expect(after.delta("livegate_apns_pushes_total", ["kind": "device", "status": "503"], since: before) == 1)
                #expect(after.delta("livegate_apns_pushes_total", ["kind": "broadcast", "status": "200"], since: before) == 1)
                #expect(after.series("livegate_apns_pushes_total").count == 4, "\(after.series("livegate_apns_pushes_total"))")
                #expect(after.delta("livegate_apns_answer_duration_seconds_count", ["kind": "broadcast"], since: before) == 1)
                #expect(after.delta("livegate_apns_answer_duration_seconds_count", device, since: before) == 6)
                #expect(
                    after.delta("livegate_apns_answer_duration_seconds_bucket", device.merging(["le": "+Inf"]) { $1 }, since: before)
                        == 6)
                #expect(after.value("livegate_apns_answer_duration_seconds_sum", device) > 0)
                #expect(after.delta("livegate_dispatch_delivery_duration_seconds_count", ["event": "update"], since: before) == 1)
                #expect(after.value("livegate_dispatch_delivery_duration_seconds_sum", ["event": "update"]) > 0)
                // Ten minutes is the last finite bucket: a delivery of a few seconds is in it, not above it.
                #expect(after.value("livegate_dispatch_delivery_duration_seconds_bucket", ["event": "update", "le": "600.0"]) == 1)

                for (labels, count) in requests {
                    #expect(
                        after.delta("livegate_http_requests_total", labels, since: before) == count,
                        "\(labels): \(after.series("livegate_http_requests_total").keys.map(\.labels))")
                }
                let update = ["route": "/messages/live_activity/update", "method": "POST"]
                #expect(
                    after.delta(
                        "livegate_http_request_duration_seconds_count", update.merging(["status": "201"]) { $1 }, since: before) == 2)
                #expect(after.value("livegate_http_requests_in_progress", ["method": "GET"]) >= 1, "the scrape itself")
                #expect(after.value("livegate_db_pool_connections_open") >= 1)
                #expect(after.value("livegate_db_pool_connections_in_use") >= 0)
                #expect(after.types["livegate_db_pool_waits_total"] == "counter")
                // A wait is counted when it starts and its duration when it ends: one may be under way.
                let waits = after.value("livegate_db_pool_waits_total")
                let waitDurations = after.value("livegate_db_pool_wait_duration_seconds_count")
                #expect(waitDurations <= waits && waitDurations >= waits - 1, "\(waitDurations) durations, \(waits) waits")
                #expect(!after.text.contains("PROPFIND"))

                Self.expectDefinitionsHold(after)
                Self.expectNothingIdentifying(
                    after.text,
                    [
                        tenant.workspace.id.uuidString, tenant.app.id.uuidString, tenant.app.identifier, tenant.secret,
                        Self.activityID, dispatchID, channelID, unmatched, "metrics-key-1", APNsSimulatorTests.bundleID,
                        SimulatorFixture.teamID, SimulatorFixture.keyID,
                    ] + tokens)
            }
        }
    }

    /// With delivery off, accepted dispatches wait: the backlog gauges (refreshed every second here)
    /// count them, and a workspace over its hourly limit is refused and counted. Each update is for an
    /// activity of its own: one would supersede the other.
    @Test func backlogGaugesCountWaitingDispatchesAndRefusalsAreCounted() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant(rateLimitPerHour: 3)
            let gateway = try await DeliveryCrashTests.startGateway(
                environment: LiveGateBinary.environment(
                    databaseURL: database.connectionString,
                    ["LIVEGATE_DELIVERY": "off", "LIVEGATE_METRICS_REFRESH_SECONDS": "1"]))
            defer { gateway.process.stop() }
            let base = "http://127.0.0.1:\(gateway.port)"
            let before = try await PrometheusScrape.scrape("\(base)/metrics")

            #expect(try await Self.update(base, tenant, activityID: "\(Self.activityID)-1").status == 201)
            #expect(try await Self.update(base, tenant, activityID: "\(Self.activityID)-2").status == 201)
            let later = ISO8601DateFormatter().string(from: Date().addingTimeInterval(3600))
            #expect(
                try await Self.update(base, tenant, activityID: "\(Self.activityID)-3", extra: #","send_at":"\#(later)""#).status
                    == 201)
            #expect(try await Self.update(base, tenant, activityID: "\(Self.activityID)-4").status == 429)

            var after = before
            try await DeliveryCrashTests.waitUntil("the backlog is refreshed") {
                after = try await PrometheusScrape.scrape("\(base)/metrics")
                // The 429 is counted once its answer is written, after the client may have read it.
                return after.value("livegate_dispatches_waiting", ["state": "pending"]) == 2
                    && after.value("livegate_dispatches_scheduled") == 1
                    && after.value("livegate_dispatch_oldest_waiting_seconds") > 0
                    && after.delta(
                        "livegate_http_requests_total",
                        ["route": "/messages/live_activity/update", "method": "POST", "status": "429"], since: before) >= 1
            }
            #expect(after.value("livegate_dispatches_waiting", ["state": "delivering"]) == 0)
            #expect(after.value("livegate_dispatch_oldest_waiting_seconds") < 60)
            #expect(after.delta("livegate_messages_accepted_total", ["event": "update"], since: before) == 3)
            #expect(
                after.delta("livegate_rate_limit_refusals_total", ["route": "/messages/live_activity/update"], since: before) == 1)
            #expect(
                after.delta(
                    "livegate_http_requests_total",
                    ["route": "/messages/live_activity/update", "method": "POST", "status": "429"], since: before) == 1)
            #expect(after.types["livegate_dispatches_waiting"] == "gauge")
            Self.expectNothingIdentifying(
                after.text,
                [tenant.workspace.id.uuidString, tenant.app.id.uuidString, tenant.app.identifier, tenant.secret, Self.activityID])
        }
    }

    /// `LIVEGATE_METRICS_ADDRESS` serves `/metrics` alone on its own address and takes it off the
    /// gateway's port; `LIVEGATE_METRICS=off` serves it nowhere.
    @Test func aSeparateAddressKeepsMetricsOffTheGatewaysPort() async throws {
        try await TestDatabase.with { database in
            let metricsPort = LiveGateBinary.freePort()
            let separate = try await DeliveryCrashTests.startGateway(
                environment: LiveGateBinary.environment(
                    databaseURL: database.connectionString,
                    ["LIVEGATE_DELIVERY": "off", "LIVEGATE_METRICS_ADDRESS": "127.0.0.1:\(metricsPort)"]))
            defer { separate.process.stop() }
            #expect(try await CurlHTTPClient.request("GET", "http://127.0.0.1:\(separate.port)/metrics").status == 404)
            // The gateway's own requests (its health checks) are counted there. Hummingbird counts a
            // request once its answer is written, so the health check that found the gateway up may be
            // counted just after its 200 arrived: scrape until it is.
            let healthChecks = ["route": "/healthz", "method": "GET", "status": "200"]
            try await DeliveryCrashTests.waitUntil("the health checks are counted", timeout: .seconds(60)) {
                try await PrometheusScrape.scrape("http://127.0.0.1:\(metricsPort)/metrics")
                    .value("livegate_http_requests_total", healthChecks) >= 1
            }
            #expect(try await CurlHTTPClient.request("GET", "http://127.0.0.1:\(metricsPort)/healthz").status == 404)

            let off = try await DeliveryCrashTests.startGateway(
                environment: LiveGateBinary.environment(
                    databaseURL: database.connectionString, ["LIVEGATE_DELIVERY": "off", "LIVEGATE_METRICS": "off"]))
            defer { off.process.stop() }
            #expect(try await CurlHTTPClient.request("GET", "http://127.0.0.1:\(off.port)/metrics").status == 404)
        }
    }

    /// A listen address that is not host:port stops `serve` before it opens anything, saying what is expected.
    @Test func aMalformedMetricsAddressIsRefused() async throws {
        for address in ["9464", "127.0.0.1:", "127.0.0.1:70000", "[::1:9464"] {
            let result = try await LiveGateBinary.run(
                ["serve"], databaseURL: "host=127.0.0.1 port=1 dbname=unused",
                environment: ["LIVEGATE_METRICS_ADDRESS": address, "LIVEGATE_LOG_LEVEL": "critical"])
            #expect(result.status != 0, "\(address)")
            #expect(result.stderr.contains("LIVEGATE_METRICS_ADDRESS must be host:port"), "\(address): \(result.stderr)")
        }
    }

    static func update(
        _ base: String, _ tenant: Tenant, activityID: String = MetricsEndpointTests.activityID, idempotencyKey: String? = nil,
        extra: String = ""
    ) async throws -> CurlHTTPClient.Response {
        var headers = ["Authorization": "Bearer \(tenant.secret)", "Content-Type": "application/json"]
        if let idempotencyKey { headers["Idempotency-Key"] = idempotencyKey }
        return try await CurlHTTPClient.request(
            "POST", "\(base)/messages/live_activity/update", headers: headers,
            body: Data(
                #"{"app_id":"\#(tenant.app.identifier)","activity_id":"\#(activityID)","content_state":{"home":1}\#(extra)}"#.utf8))
    }

    /// Every family shown that the catalog defines has the catalog's type and help.
    static func expectDefinitionsHold(_ scrape: PrometheusScrape) {
        for definition in GatewayMetrics.all where scrape.types[definition.name] != nil {
            #expect(scrape.types[definition.name] == definition.kind.rawValue, "\(definition.name)")
            #expect(scrape.helps[definition.name] == definition.help, "\(definition.name)")
        }
        let livegate = scrape.types.keys.filter { $0.hasPrefix("livegate_") }
        #expect(Set(livegate).isSubset(of: GatewayMetrics.all.map(\.name)), "\(livegate)")
    }

    /// None of `secrets` appears in the scrape, in any case.
    static func expectNothingIdentifying(_ text: String, _ secrets: [String]) {
        let lowered = text.lowercased()
        for secret in secrets {
            #expect(!lowered.contains(secret.lowercased()), "the scrape shows \(secret)")
        }
    }
}
