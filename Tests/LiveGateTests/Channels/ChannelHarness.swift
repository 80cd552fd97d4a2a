import APNsClient
import APNsCore
import APNsSimulator
import Foundation
import Hummingbird
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

/// A test's own database, an APNs simulator over TLS that knows the app's key, a tenant whose app
/// manages its channels there, and the gateway's router with a channel manager trusting the simulator.
/// Unchecked: `SimulatorControlClient` is a plain class; each test uses it from one task at a time.
struct ChannelHarness: @unchecked Sendable {
    let database: TestDatabase
    let tenant: Tenant
    let control: SimulatorControlClient
    let manager: APNsChannelManager
    /// Another gateway's: its own provider tokens and connections to the simulator.
    let secondManager: APNsChannelManager
    let fixture: SimulatorFixture
    let limits: ChannelLimits
    /// How long an ended activity's channel is kept.
    let retention: Duration

    static let bundleID = APNsSimulatorTests.bundleID

    static func with(
        limits: ChannelLimits = .init(), retention: Duration = .seconds(3600), simulatorLimit: Int = 10_000,
        credentials: Bool = true,
        _ body: (ChannelHarness) async throws -> Void
    ) async throws {
        try await SimulatorFixture.with(channelLimit: simulatorLimit) { fixture in
            try await TestDatabase.with(poolSize: 6) { database in
                let tenant = try await database.makeTenant(
                    bundleID: bundleID, endpoint: fixture.endpoint, credentials: credentials ? fixture.credentials : nil)
                let manager = APNsChannelManager(transport: .init(trustedCAFile: fixture.certificate.certificateFile))
                let secondManager = APNsChannelManager(transport: .init(trustedCAFile: fixture.certificate.certificateFile))
                let control = SimulatorControlClient(port: fixture.port, caFile: fixture.certificate.certificateFile)
                let harness = ChannelHarness(
                    database: database, tenant: tenant, control: control, manager: manager, secondManager: secondManager,
                    fixture: fixture, limits: limits, retention: retention)
                let failure: (any Error)?
                do {
                    try await body(harness)
                    failure = nil
                } catch {
                    failure = error
                }
                await control.shutdown()
                await manager.shutdown()
                await secondManager.shutdown()
                if let failure { throw failure }
            }
        }
    }

    /// Calls the gateway's router, as the customer's server and the SDK would.
    func api(
        manager: APNsChannelManager? = nil, _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let dependencies = GatewayDependencies.postgres(pool: database.pool, channelManager: manager ?? self.manager)
        try await buildApplication(
            configuration: GatewayConfiguration(lookupCacheTimeToLive: .zero, channelLimits: limits, channelRetention: retention),
            dependencies: dependencies, logger: .quiet
        ).test(.router) { client in try await body(client) }
    }

    func create(_ activityID: String, policy: Int? = nil, app: App? = nil, _ client: any TestClientProtocol) async throws -> TestResponse {
        let policyField = policy.map { #","message_storage_policy":\#($0)"# } ?? ""
        return try await client.post(
            "/live_activity/channels",
            #"{"app_id":"\#((app ?? tenant.app).identifier)","activity_id":"\#(activityID)"\#(policyField)}"#, key: tenant.secret)
    }

    func delete(_ activityID: String, _ client: any TestClientProtocol) async throws -> TestResponse {
        try await client.post(
            "/live_activity/channels/delete", #"{"app_id":"\#(tenant.app.identifier)","activity_id":"\#(activityID)"}"#,
            key: tenant.secret)
    }

    /// Ends (or, with `end: false`, updates) the activity through `/messages/live_activity/update`.
    func update(_ activityID: String, end: Bool, externalID: String? = nil, _ client: any TestClientProtocol) async throws {
        let user = externalID.map { #","external_id":"\#($0)""# } ?? ""
        let response = try await client.post(
            "/messages/live_activity/update",
            #"{"app_id":"\#(tenant.app.identifier)","activity_id":"\#(activityID)","content_state":{},"end_activity":\#(end)\#(user)}"#,
            key: tenant.secret)
        #expect(response.status == .created, "\(response.text)")
    }

    /// Deletes, as housekeeping does, the ended channels past their retention; `lease: .zero` lets the
    /// next call retry at once what this one could not delete.
    func deleteEndedChannels(lease: Duration = .seconds(120)) async throws -> Int {
        try await EndedChannelDeletion(
            store: PostgresChannelStore(pool: database.pool), tenancy: database.tenancy, manager: manager, lease: lease,
            logger: .quiet
        ).run()
    }

    /// Seconds from now until the activity's channel is deleted, as stored.
    func secondsUntilDeletion(_ activityID: String) async throws -> Double? {
        try await database.pool.query(
            "SELECT extract(epoch FROM delete_after - now())::float8 AS s FROM broadcast_channels WHERE activity_id = $1",
            [activityID]
        ).first?.decode("s")
    }

    /// The simulator's channels, as `GET /_sim/channels` lists them: (channel id, policy), oldest first.
    func simulatorChannels() async throws -> [(id: String, policy: Int)] {
        let listed = try JSONValue.parse(try await control.request("GET", "/_sim/channels").body)
        return (listed.arrayValue ?? []).map { entry in
            (entry["channel_id"]?.stringValue ?? "", Int(entry["message_storage_policy"]?.numberLexeme ?? "") ?? -1)
        }
    }

    /// The gateway's rows: activity id → (state, channel id).
    func rows() async throws -> [String: (state: String, channelID: String?)] {
        var rows: [String: (state: String, channelID: String?)] = [:]
        for row in try await database.pool.query("SELECT activity_id, state, channel_id FROM broadcast_channels") {
            rows[try row.require("activity_id")] = (try row.require("state"), try row.decode("channel_id"))
        }
        return rows
    }

    /// Makes the simulator answer the app's management requests with `status` and `reason`.
    func fault(_ status: Int, _ reason: String) async throws {
        let set = try await control.request(
            "PUT", "/_sim/apps/\(Self.bundleID)", body: #"{"status":\#(status),"reason":"\#(reason)"}"#)
        #expect(set.status == 200)
    }

    func clearFault() async throws {
        #expect(try await control.request("DELETE", "/_sim/apps/\(Self.bundleID)").status == 204)
    }

    /// The activity log's messages, oldest first: (type, message, apns status).
    func log() async throws -> [(type: String, message: String, status: Int?)] {
        try await database.pool.query("SELECT type, message, apns_status::int AS s FROM message_activity_log ORDER BY id").map {
            (try $0.require("type"), try $0.require("message"), try $0.decode("s"))
        }
    }
}
