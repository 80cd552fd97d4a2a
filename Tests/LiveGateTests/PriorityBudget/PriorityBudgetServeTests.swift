import APNsCore
import APNsSimulator
import Foundation
import LiveGate
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

/// `livegate serve` processes sending to the TLS simulator under an app's priority budget, set through
/// the REST API as a customer's server would: what each device receives, the one log entry, and one
/// count shared by two gateways delivering the same activity.
@Suite("Priority budget through livegate serve", .heavy, .requiresPostgres)
struct PriorityBudgetServeTests {
    static let standardDevice = token(0x71)
    static let frequentDevice = token(0x72)

    struct Served {
        let simulator: APNsSimulator
        let database: TestDatabase
        let tenant: Tenant
        let ports: [Int]

        var headers: [String: String] { ["Authorization": "Bearer \(tenant.secret)", "Content-Type": "application/json"] }

        func call(_ method: String, _ path: String, port: Int? = nil, _ body: String? = nil) async throws -> CurlHTTPClient.Response {
            try await CurlHTTPClient.request(
                method, "http://127.0.0.1:\(port ?? ports[0])\(path)", headers: headers, body: body.map { Data($0.utf8) })
        }

        /// Posts the update through `port`'s gateway and waits until every device has it.
        func update(_ fields: String, through port: Int, devices: Int) async throws {
            let before = simulator.received.count
            let accepted = try await call(
                "POST", "/messages/live_activity/update", port: port,
                #"{"app_id":"\#(tenant.app.identifier)","activity_id":"match","content_state":\#(fields)}"#)
            #expect(accepted.status == 201, "\(accepted.text)")
            try await DeliveryCrashTests.waitUntil("the update reached every device") { simulator.received.count >= before + devices }
        }

        func priorities(to device: String) -> [String] {
            simulator.received.filter { $0.deviceToken == device }.map { $0.headers["apns-priority"] ?? "none" }
        }
    }

    /// Starts `gateways` delivering gateways over one database and the simulator, with two devices under
    /// the activity "match", the second reporting that its user allows frequent updates.
    static func serve(gateways: Int, _ body: (Served) async throws -> Void) async throws {
        try await SimulatorFixture.with { fixture in
            try await TestDatabase.with { database in
                let tenant = try await database.makeTenant(
                    bundleID: APNsSimulatorTests.bundleID, endpoint: fixture.endpoint, credentials: fixture.credentials)
                var processes: [BackgroundProcess] = []
                defer { for process in processes { process.stop() } }
                var ports: [Int] = []
                for _ in 0..<gateways {
                    let gateway = try await DeliveryCrashTests.startGateway(
                        environment: LiveGateBinary.environment(
                            databaseURL: database.connectionString, ["LIVEGATE_APNS_CA_FILE": fixture.certificate.certificateFile]))
                    processes.append(gateway.process)
                    ports.append(gateway.port)
                }
                let served = Served(simulator: fixture.simulator, database: database, tenant: tenant, ports: ports)
                let app = tenant.app.identifier
                for (device, token) in [("phone-a", standardDevice), ("phone-b", frequentDevice)] {
                    let registered = try await served.call(
                        "POST", "/push_token_tag", #"{"app_id":"\#(app)","device_id":"\#(device)","tag":"match","push_token":"\#(token)"}"#)
                    #expect(registered.status == 201, "\(registered.text)")
                }
                let reported = try await served.call(
                    "POST", "/live_activity/device_state",
                    #"{"app_id":"\#(app)","device_id":"phone-b","activity_id":"match","state":"active","frequent_pushes_enabled":true}"#)
                #expect(reported.status == 201, "\(reported.text)")
                try await body(served)
            }
        }
    }

    @Test func twelveUpdatesWithABudgetOfFiveReachTheDevicesFiveAtTenThenSevenAtFive() async throws {
        try await Self.serve(gateways: 1) { served in
            let app = served.tenant.app.identifier
            let set = try await served.call(
                "PUT", "/live_activity/priority_budget",
                #"{"app_id":"\#(app)","priority_budget_per_hour":5,"frequent_priority_budget_per_hour":8}"#)
            #expect(set.status == 200, "\(set.text)")
            for score in 1...12 {
                try await served.update(#"{"score":\#(score)}"#, through: served.ports[0], devices: 2)
            }
            let before = served.simulator.received.count
            let ended = try await served.call(
                "POST", "/messages/live_activity/update",
                #"{"app_id":"\#(app)","activity_id":"match","content_state":{"score":12},"end_activity":true}"#)
            #expect(ended.status == 201)
            try await DeliveryCrashTests.waitUntil("the end reached both devices") { served.simulator.received.count >= before + 2 }

            let ten = { (count: Int) in Array(repeating: "10", count: count) }
            let five = { (count: Int) in Array(repeating: "5", count: count) }
            #expect(served.priorities(to: Self.standardDevice) == ten(5) + five(7) + ["10"])
            #expect(served.priorities(to: Self.frequentDevice) == ten(8) + five(4) + ["10"], "the frequent budget for the reporting device")

            let log = try await served.call("GET", "/message_activity_log?app_id=\(app)&type=Live%20Activity%20priority%20lowered")
            #expect(log.status == 200, "\(log.text)")
            let entries = try #require(try JSONValue.parse(Array(log.body))["entries"]?.arrayValue)
            #expect(entries.count == 1, "one entry for the activity's hour: \(log.text)")
            #expect(entries.first?["activity_id"]?.stringValue == "match")

            let resource = try await served.call("GET", "/live_activity/activities/match?app_id=\(app)")
            let hours = try #require(try JSONValue.parse(Array(resource.body))["priority_hours"]?.arrayValue, "\(resource.text)")
            #expect(hours.count == 1)
            #expect(hours.first?["priority_10"]?.numberLexeme == "9", "eight updates and the end at 10 to some device")
            #expect(hours.first?["lowered"]?.numberLexeme == "7")
            let metrics = try await PrometheusScrape.scrape("http://127.0.0.1:\(served.ports[0])/metrics")
            #expect(metrics.value("livegate_priority_lowered_total") == 11, "7 pushes to the standard device, 4 to the frequent one")
        }
    }

    /// Two gateways each deliver what they accept, one update in turn: the activity's count is one
    /// count, so together they send the budget's priority-10 updates, not twice it.
    @Test func twoGatewaysDeliveringOneActivityShareOneCount() async throws {
        try await Self.serve(gateways: 2) { served in
            let set = try await served.call(
                "PUT", "/live_activity/priority_budget", #"{"app_id":"\#(served.tenant.app.identifier)","priority_budget_per_hour":4}"#)
            #expect(set.status == 200, "\(set.text)")
            for score in 1...8 {
                try await served.update(#"{"score":\#(score)}"#, through: served.ports[score % 2], devices: 2)
            }
            for device in [Self.standardDevice, Self.frequentDevice] {
                #expect(served.priorities(to: device) == ["10", "10", "10", "10", "5", "5", "5", "5"])
            }
            // Each gateway delivered what it accepted (its commits hand them to its own engine), the
            // lowered half included.
            var lowered: [Double] = []
            for port in served.ports {
                lowered.append(
                    try await PrometheusScrape.scrape("http://127.0.0.1:\(port)/metrics").value("livegate_priority_lowered_total"))
            }
            #expect(lowered.reduce(0, +) == 8, "four updates to two devices: \(lowered)")
            #expect(lowered.allSatisfy { $0 > 0 }, "both gateways lowered some: \(lowered)")
        }
    }
}
