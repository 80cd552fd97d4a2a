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
import NIOConcurrencyHelpers
import PostgresClient
import TestSupport
import Testing

/// A test's own database, an APNs simulator over TLS that knows the app's key, a tenant whose app
/// sends to it, and the gateway `Gateway.parts` wires for `livegate serve` over them: messages go in
/// through its router and come out at the simulator through its delivery engine and HTTP/2 client.
struct DeliveryHarness {
    let database: TestDatabase
    let simulator: APNsSimulator
    let tenant: Tenant
    /// The gateway as `serve` wires it; its services are not run, its engine only as a test says.
    let parts: GatewayParts
    let engine: DeliveryEngine
    /// The app's key, for apps made to share or break it.
    let keys: TestKeyPair
    let endpoint: APNsEndpoint
    let certificate: TestKeyPair.Certificate
    let tokenCache: ProviderTokenCache
    let settings: DeliverySettings
    /// What the gateway was assembled from, as `serve` reads it.
    let gatewaySettings: GatewaySettings

    /// Rung by the router after each commit; wakes `engine` when it runs as a service.
    var doorbell: DeliveryDoorbell { parts.commits.doorbell }
    /// Shared by the router and `engine`, as in `serve`: a commit or `DELETE` here stops a delivery at once.
    var stops: DispatchStopSignals { parts.commits.stops }
    /// Where the router's commits hand `engine` what they wrote leased to it, while it runs.
    var handoff: DeliveryHandoff? { parts.commits.handoff }

    /// Quick retries, so tests of backoff take milliseconds.
    static let testSettings = DeliverySettings(
        pageSize: 100, maximumPushesInFlight: 64, concurrentDispatches: 4, lease: .seconds(30),
        pollInterval: .milliseconds(50),
        pushRetry: .init(maximumAttempts: 4, baseDelay: .milliseconds(5), maximumDelay: .milliseconds(40)),
        resendRetry: .init(maximumAttempts: 3, baseDelay: .seconds(60), maximumDelay: .seconds(600)),
        handBackRetry: .init(maximumAttempts: 3, baseDelay: .seconds(60), maximumDelay: .seconds(600)))

    static func with(
        settings: DeliverySettings = testSettings, tokens: ProviderTokenCache = ProviderTokenCache(),
        credentials: Bool = true, endpoint override: APNsEndpoint? = nil, connectionsPerHost: Int? = nil,
        _ body: (DeliveryHarness) async throws -> Void
    ) async throws {
        try await SimulatorFixture.with { fixture in
            let endpoint = override ?? fixture.endpoint
            try await TestDatabase.with(poolSize: 6) { database in
                let tenant = try await database.makeTenant(
                    bundleID: APNsSimulatorTests.bundleID, endpoint: endpoint, credentials: credentials ? fixture.credentials : nil)
                var gateway = TestGateway.settings(database, trustedCAFile: fixture.certificate.certificateFile, delivery: true)
                gateway.delivery = settings
                if let connectionsPerHost { gateway.transport.maximumConnectionsPerHost = connectionsPerHost }
                gateway.dispatchCommit.supersedes = settings.supersedes
                let parts = Gateway.parts(
                    settings: gateway, pool: database.pool, metricsRegistry: nil, logger: .quiet, worker: "test-worker",
                    providerTokens: tokens)
                let engine = try #require(parts.engine)
                let harness = DeliveryHarness(
                    database: database, simulator: fixture.simulator, tenant: tenant, parts: parts, engine: engine,
                    keys: fixture.keys, endpoint: endpoint, certificate: fixture.certificate, tokenCache: tokens,
                    settings: settings, gatewaySettings: gateway)
                do {
                    try await body(harness)
                } catch {
                    await engine.shutdown()
                    throw error
                }
                await engine.shutdown()
            }
        }
    }

    /// Calls the gateway's router, as the customer's server and the SDK would.
    func api(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        try await TestGateway.app(parts).test(.router) { client in
            try await body(client)
        }
    }

    /// Another gateway over `pool` (one through a fault proxy, say), wired as this one and `serve` are,
    /// its engine named `worker`.
    func gateway(worker: String, pool: PostgresConnectionPool) -> GatewayParts {
        var settings = gatewaySettings
        settings.database = pool.configuration
        return Gateway.parts(
            settings: settings, pool: pool, metricsRegistry: nil, logger: .quiet, worker: worker, providerTokens: tokenCache)
    }

    /// Another engine (another gateway) over the same database and simulator, with its own doorbell;
    /// with `session`, it claims under a worker session of its own, as `serve`'s engine does.
    /// `queue` replaces the engine's own queue over the test's database.
    func anotherEngine(
        worker: String, session: Bool = false, doorbell: DeliveryDoorbell = .init(), queue: (any DeliveryQueue)? = nil
    ) -> DeliveryEngine {
        DeliveryEngine(
            queue: queue ?? PostgresDeliveryQueue(pool: database.pool), tenancy: database.tenancy,
            sender: APNsSender(tokens: tokenCache, transport: .init(trustedCAFile: certificate.certificateFile)),
            settings: settings, doorbell: doorbell, logger: .quiet, worker: worker,
            session: session ? PostgresWorkerSession(configuration: database.pool.configuration) : nil)
    }

    /// Posts an update for the tenant's app and returns the dispatch id.
    @discardableResult
    func update(_ fields: String, activityID: String = "game-42") async throws -> String {
        let body = #"{"app_id":"\#(tenant.app.identifier)","activity_id":"\#(activityID)",\#(fields)}"#
        let id = NIOLockedValueBox<String?>(nil)
        try await api { client in
            let response = try await client.post("/messages/live_activity/update", body, key: tenant.secret)
            #expect(response.status == .created, "\(String(buffer: response.body))")
            id.withLockedValue { $0 = response.dispatchID }
        }
        return try #require(id.withLockedValue { $0 })
    }

    /// Registers an update token as the SDK does, through `POST /push_token_tag`.
    func register(_ token: String, device: String, tag: String = "game-42", externalID: String? = nil) async throws {
        let user = externalID.map { #","external_id":"\#($0)""# } ?? ""
        let body = #"{"app_id":"\#(tenant.app.identifier)","device_id":"\#(device)","tag":"\#(tag)","push_token":"\#(token)"\#(user)}"#
        try await api { client in
            let response = try await client.post("/push_token_tag", body, key: nil)
            #expect(response.status == .created, "\(String(buffer: response.body))")
        }
    }

    /// The dispatch's delivery columns.
    func dispatch(_ id: String) async throws -> PostgresRow {
        try await database.pool.query(
            """
            SELECT status, sent_count, failed_count, retried_count, removed_count, attempts, fanout_cursor, payload,
                   floor(extract(epoch FROM expires_at))::bigint AS expires_epoch, next_attempt_at > now() AS waiting
            FROM dispatches WHERE id = $1
            """, [id])[0]
    }

    /// The activity log, oldest first.
    func log() async throws -> PostgresRows {
        try await database.pool.query(
            """
            SELECT workspace_id, app_id, type, message, activity_id, dispatch_id, external_id, masked_token,
                   apns_status::int AS apns_status, apns_reason, apns_id
            FROM message_activity_log ORDER BY id
            """)
    }

    func tokens(tag: String = "game-42") async throws -> [String] {
        try await database.pool.query(
            "SELECT push_token FROM activity_tokens WHERE activity_id = $1 ORDER BY id", [tag]
        ).map { try $0.require("push_token") }
    }
}

/// A token of 32 bytes made of one repeated byte, e.g. `token(0x0a)`.
func token(_ byte: Int) -> String {
    String(repeating: String(format: "%02x", byte), count: 32)
}

/// A token of 32 bytes that encodes `index`, for fan-outs of many devices.
func token(numbered index: Int) -> String {
    String(repeating: "ab", count: 28) + String(format: "%08x", index)
}
