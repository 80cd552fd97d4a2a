import APNsCore
import APNsSimulator
import ActivityKit
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateKit
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

/// A match, as an app's widget would declare it: Braze-shaped attributes, so a push-to-start's
/// `brazeActivityId` tags the started activity.
struct MatchAttributes: ActivityAttributes, LiveGateActivityAttributes {
    struct ContentState: Codable, Hashable {
        var score: String
    }

    var home: String
    var away: String
    var brazeActivityId: String?
}

/// The real gateway (`livegate serve` on its own database) delivering to the TLS simulator, a tenant
/// whose app sends there, and a storage folder for the SDK: the SDK's tests play the device against it.
struct SDKHarness: Sendable {
    let database: TestDatabase
    let simulator: APNsSimulator
    let tenant: Tenant
    let gateway: BackgroundProcess
    let port: Int
    let folder: URL
    let environment: [String: String]

    var base: String { "http://127.0.0.1:\(port)" }

    /// Quick retries, so a test of an outage takes seconds.
    static let quickRetry = RetryPolicy(baseDelay: .milliseconds(100), maximumDelay: .milliseconds(500))

    static func with(_ body: @Sendable (SDKHarness) async throws -> Void) async throws {
        try await SimulatorFixture.with { fixture in
            try await TestDatabase.with { database in
                let tenant = try await database.makeTenant(
                    bundleID: SimulatorFixture.bundleID, endpoint: fixture.endpoint, credentials: fixture.credentials)
                let environment = LiveGateBinary.environment(
                    databaseURL: database.connectionString,
                    ["LIVEGATE_APNS_CA_FILE": fixture.certificate.certificateFile, "LIVEGATE_DELIVERY_POLL_MILLISECONDS": "100"])
                let gateway = try await GatewayProcess.start(environment: environment)
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livegatekit-\(UUID().uuidString)")
                defer {
                    gateway.process.stop()
                    try? FileManager.default.removeItem(at: folder)
                }
                try await body(
                    SDKHarness(
                        database: database, simulator: fixture.simulator, tenant: tenant, gateway: gateway.process,
                        port: gateway.port, folder: folder, environment: environment))
            }
        }
    }

    /// The SDK as the app configures it, over this harness's gateway (or `url`) and storage folder.
    func sdk(
        url: String? = nil, transport: (any LiveGateTransport)? = nil,
        token: (@Sendable (String) async throws -> String)? = nil
    ) throws -> LiveGate {
        try LiveGate(
            configuration: .init(
                gatewayURL: URL(string: url ?? base)!, appID: tenant.app.identifier, storageFolder: folder,
                sdkAuthenticationToken: token, retry: Self.quickRetry, transport: transport))
    }

    /// The customer's server: a REST call with the tenant's key.
    func post(_ path: String, _ fields: String) async throws -> CurlHTTPClient.Response {
        try await CurlHTTPClient.request(
            "POST", base + path, headers: ["Authorization": "Bearer \(tenant.secret)", "Content-Type": "application/json"],
            body: Data(#"{"app_id":"\#(tenant.app.identifier)",\#(fields)}"#.utf8))
    }

    func get(_ path: String) async throws -> CurlHTTPClient.Response {
        try await CurlHTTPClient.request("GET", base + path, headers: ["Authorization": "Bearer \(tenant.secret)"])
    }

    /// The update tokens registered under `tag`, by device.
    func updateTokens(tag: String) async throws -> [String: String] {
        var tokens: [String: String] = [:]
        for row in try await database.pool.query(
            "SELECT device_id, push_token FROM activity_tokens WHERE app_id = $1 AND activity_id = $2", [tenant.app.id, tag])
        {
            tokens[try row.require("device_id")] = try row.require("push_token")
        }
        return tokens
    }

    func waitUntilDone(dispatches: Int) async throws {
        try await GatewayProcess.waitUntil("\(dispatches) dispatches are done", timeout: .seconds(60)) {
            try await database.count("SELECT count(*) FROM dispatches WHERE status = 'done'") == dispatches
        }
    }
}

/// A token of 32 bytes made of one repeated byte, as data and as the gateway stores it.
func token(_ byte: UInt8) -> Data { Data(repeating: byte, count: 32) }
func hex(_ byte: UInt8) -> String { String(repeating: String(format: "%02x", byte), count: 32) }
