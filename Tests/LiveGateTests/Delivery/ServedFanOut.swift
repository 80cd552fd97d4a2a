import APNsClient
import APNsCore
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import TestSupport
import Testing

/// One update fanned out by `livegate serve` to `livegate apns-sim`, two processes over real sockets:
/// an app on the simulator with `devices` registered under the activity "final", the gateway started
/// with `environment`, and the update posted. What the serve tests then break, wait for and check.
struct ServedFanOut {
    let control: SimulatorControlClient
    /// The gateway's base URL, and the headers that authorise the app's calls.
    let base: String
    let auth: [String: String]
    let dispatchID: String
    /// The gateway's metrics just before the update was posted.
    let metricsBefore: PrometheusScrape

    /// Starts the simulator (`simulatorOptions`) and the gateway, posts the update and runs `body`;
    /// `prepare` sets up the simulator before the gateway starts. Stops both processes however it ends.
    static func run(
        devices: [String], simulatorOptions: [String], environment: [String: String],
        prepare: (SimulatorControlClient) async throws -> Void = { _ in },
        _ body: (ServedFanOut) async throws -> Void
    ) async throws {
        try await SimulatorProcess.with(options: simulatorOptions) { simulatorPort, keys, certificate, control in
            try await TestDatabase.with { database in
                let tenant = try await database.makeTenant(
                    bundleID: APNsSimulatorTests.bundleID, endpoint: APNsEndpoint(rawValue: "https://127.0.0.1:\(simulatorPort)")!,
                    credentials: APNsCredentials(teamID: "TEAM123456", keyID: "KEY1234567", privateKeyPEM: keys.privatePEM))
                try await database.insertActivityTokens(devices, app: tenant.app, activityID: "final")
                try await prepare(control)
                var settings = environment
                settings["LIVEGATE_APNS_CA_FILE"] = certificate
                let gateway = try await DeliveryCrashTests.startGateway(
                    environment: LiveGateBinary.environment(databaseURL: database.connectionString, settings))
                defer { gateway.process.stop() }
                let base = "http://127.0.0.1:\(gateway.port)"
                let auth = ["Authorization": "Bearer \(tenant.secret)", "Content-Type": "application/json"]
                let before = try await PrometheusScrape.scrape("\(base)/metrics")

                let accepted = try await CurlHTTPClient.request(
                    "POST", base + "/messages/live_activity/update", headers: auth,
                    body: Data(#"{"app_id":"\#(tenant.app.identifier)","activity_id":"final","content_state":{"home":2,"away":1}}"#.utf8))
                #expect(accepted.status == 201, "\(accepted.text)")
                let id = try #require(accepted.json?["dispatch_id"] as? String)
                try await body(
                    ServedFanOut(control: control, base: base, auth: auth, dispatchID: id, metricsBefore: before))
            }
        }
    }

    /// Waits until the dispatch is done; its `devices` counts.
    func waitUntilDone(timeout: Duration) async throws -> (counts: [String: Any], text: String) {
        let url = base + "/messages/live_activity/dispatches/\(dispatchID)"
        try await DeliveryCrashTests.waitUntil("the dispatch is done", timeout: timeout) {
            try await CurlHTTPClient.request("GET", url, headers: auth).json?["status"] as? String == "done"
        }
        let resource = try await CurlHTTPClient.request("GET", url, headers: auth)
        return (try #require(resource.json?["devices"] as? [String: Any]), resource.text)
    }
}
