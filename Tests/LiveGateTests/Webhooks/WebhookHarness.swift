import APNsCore
import Foundation
import LiveGateDelivery
import LiveGateDomain
@testable import LiveGateStore
import Logging
import PostgresClient
import ServiceLifecycle
import TestSupport
import Testing

/// A test's database with a tenant, its webhook endpoints made through the store, events written as
/// the gateway writes them (`EventStatement`, in a transaction), and senders run as services.
struct WebhookHarness {
    let database: TestDatabase
    let tenant: Tenant
    var store: PostgresWebhookStore { PostgresWebhookStore(pool: database.pool, interest: nil) }

    /// Quick polls, retries and leases, so that tests take seconds.
    static let settings = WebhookSettings(
        pollInterval: .milliseconds(50), timeout: .seconds(2), lease: .seconds(3), retryPeriod: .seconds(3600),
        backoff: WebhookBackoff(base: .milliseconds(50), cap: .milliseconds(200)), concurrency: 4)

    static func with(_ body: (WebhookHarness) async throws -> Void) async throws {
        try await TestDatabase.with(poolSize: 8) { database in
            try await body(WebhookHarness(database: database, tenant: try await database.makeTenant()))
        }
    }

    /// An endpoint of the tenant's workspace (all its apps unless `appID`) and its secret.
    func endpoint(
        _ url: String, types: [EventType] = EventType.all, appID: UUID? = nil, workspaceID: UUID? = nil
    ) async throws
        -> (id: UUID, secret: String)
    {
        let secret = WebhookSignature.newSecret()
        let made = try await store.create(
            workspaceID: workspaceID ?? tenant.workspace.id, appID: appID, url: url, eventTypes: types, secret: secret)
        return (made.id, secret)
    }

    /// `count` events in one transaction, each with a `n` field counting from `from`; answers their ids.
    @discardableResult
    func insert(
        _ count: Int, type: EventType = .pushSent, from start: Int = 0, workspaceID: UUID? = nil, appID: UUID?? = .none
    ) async throws -> [String] {
        let workspace = workspaceID ?? tenant.workspace.id
        let app = appID ?? tenant.app.id
        let events = (0..<count).map { index in
            var event = OutgoingEvent(type, workspaceID: workspace, appID: app)
            event.set("n", start + index)
            return event
        }
        let sent = events
        return try await database.pool.transaction { connection in
            try EventStatement.insert(sent, on: connection)
            return try connection.query("SELECT e.id FROM events e WHERE e.xid = pg_current_xact_id() ORDER BY e.id").map {
                String(try $0.require("id", as: Int64.self))
            }
        }
    }

    func sender(worker: String = "sender-1", settings: WebhookSettings = settings) -> WebhookSender {
        WebhookSender(
            queue: PostgresWebhookQueue(pool: database.pool), log: PostgresEventLog(pool: database.pool), settings: settings,
            worker: worker, logger: .quiet)
    }

    /// Runs the senders as services for the length of `body`, then stops them gracefully.
    func running(_ senders: [WebhookSender], _ body: () async throws -> Void) async throws {
        let group = ServiceGroup(configuration: .init(services: senders, logger: .quiet))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            do {
                try await body()
            } catch {
                await group.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    func row(_ id: UUID) async throws -> PostgresRow {
        try await database.pool.query(
            "SELECT paused_at IS NOT NULL AS paused, failures, last_error, delivered_events, leased_by FROM webhook_endpoints WHERE id = $1",
            [id])[0]
    }
}

extension WebhookReceiver.Batch {
    /// The signature checked as a receiver would: `t=<seconds>,v1=<hex HMAC-SHA256(secret, t.body)>`.
    func isSigned(with secret: String) -> Bool {
        guard let signature else { return false }
        var parts: [String: String] = [:]
        for part in signature.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { parts[String(pair[0])] = String(pair[1]) }
        }
        guard let t = parts["t"], let seconds = Int64(t), abs(Int64(Date().timeIntervalSince1970) - seconds) < 300 else { return false }
        let expected = WebhookSignature.hex(WebhookSignature.hmacSHA256(key: Array(secret.utf8), message: Array("\(t).".utf8) + body))
        return parts["v1"] == expected
    }
}
