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

/// Two `livegate serve` processes on one database: one delivers, the other only accepts. The newer
/// update accepted by the second stops the first's fan-out through the database alone.
@Suite("Supersession across gateway processes", .heavy, .requiresPostgres)
struct SupersessionAcrossGatewaysTests {
    static let devices = 2_000

    @Test func anUpdateAcceptedByOneGatewayStopsAnotherGatewaysDelivery() async throws {
        try await SimulatorFixture.with { fixture in
            let simulator = fixture.simulator
            let tokens = (0..<Self.devices).map { token(numbered: $0) }
            for device in tokens { simulator.setBehavior(.delay(milliseconds: 20), for: device) }
            try await TestDatabase.with { database in
                let tenant = try await database.makeTenant(
                    bundleID: APNsSimulatorTests.bundleID, endpoint: fixture.endpoint, credentials: fixture.credentials)
                try await database.insertActivityTokens(tokens, app: tenant.app, activityID: "final")
                // One page is the whole fan-out: only the once-a-second check can tell the deliverer.
                let common = [
                    "LIVEGATE_APNS_CA_FILE": fixture.certificate.certificateFile, "LIVEGATE_DELIVERY_PAGE_SIZE": "5000",
                    "LIVEGATE_DELIVERY_MAX_IN_FLIGHT": "20", "LIVEGATE_DELIVERY_POLL_MILLISECONDS": "100",
                ]
                let deliverer = try await DeliveryCrashTests.startGateway(
                    environment: LiveGateBinary.environment(databaseURL: database.connectionString, common))
                defer { deliverer.process.stop() }
                let acceptor = try await DeliveryCrashTests.startGateway(
                    environment: LiveGateBinary.environment(
                        databaseURL: database.connectionString, common.merging(["LIVEGATE_DELIVERY": "off"]) { $1 }))
                defer { acceptor.process.stop() }

                let first = try await Self.update(port: deliverer.port, tenant: tenant, score: "1-0")
                try await DeliveryCrashTests.waitUntil("the first update is under way") { simulator.received.count >= 200 }
                let second = try await Self.update(port: acceptor.port, tenant: tenant, score: "2-0")

                try await DeliveryCrashTests.waitUntil("the second update is done", timeout: .seconds(60)) {
                    try await Self.status(of: second, database) == "done"
                }
                // The deliverer writes `superseded` once it stopped sending (the newer waited for that):
                // no push of the old state goes after it.
                #expect(try await Self.status(of: first, database) == "superseded")
                let oldState = { simulator.received.filter { String(decoding: $0.payload, as: UTF8.self).contains("1-0") }.count }
                let atEnd = oldState()
                try await Task.sleep(for: .milliseconds(300))
                #expect(oldState() == atEnd, "nothing more of the old state is sent")
                let firstSent: Int = try await database.pool.query(
                    "SELECT sent_count FROM dispatches WHERE id = $1", [first])[0].require("sent_count")
                #expect(firstSent < Self.devices)
                let last = try SupersessionDeliveryTests.lastStates(simulator)
                #expect(last.count == Self.devices)
                #expect(last.values.allSatisfy { $0 == "2-0" }, "every device's last push holds the newest state")
            }
        }
    }

    static func update(port: Int, tenant: Tenant, score: String) async throws -> String {
        let response = try await CurlHTTPClient.request(
            "POST", "http://127.0.0.1:\(port)/messages/live_activity/update",
            headers: ["Authorization": "Bearer \(tenant.secret)", "Content-Type": "application/json"],
            body: Data(#"{"app_id":"\#(tenant.app.identifier)","activity_id":"final","content_state":{"score":"\#(score)"}}"#.utf8))
        #expect(response.status == 201)
        let body = try JSONValue.parse(Array(response.body))
        return try #require(body["dispatch_id"]?.stringValue)
    }

    static func status(of id: String, _ database: TestDatabase) async throws -> String {
        try await database.pool.query("SELECT status FROM dispatches WHERE id = $1", [id])[0].require("status")
    }
}
