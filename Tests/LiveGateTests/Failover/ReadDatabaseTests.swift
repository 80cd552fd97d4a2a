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

/// `DATABASE_READ_URL`: the read-only routes (the message activity log, the activity and dispatch
/// resources) read a standby, and the primary when the standby cannot be reached or does not have a
/// dispatch yet. The standby here is a proxy in front of the tests' PostgreSQL (or another database).
@Suite("Reads from a standby (DATABASE_READ_URL)", .requiresPostgres)
struct ReadDatabaseTests {
    static func gateway(_ database: TestDatabase, readURL: String) throws -> some ApplicationProtocol {
        let settings = try GatewaySettings(
            SettingsReader([
                "DATABASE_URL": database.connectionString, "DATABASE_READ_URL": readURL, "LIVEGATE_DELIVERY": "off",
                "LIVEGATE_METRICS": "off", "LIVEGATE_DB_TIMEOUT_SECONDS": "1",
            ]), port: 0)
        let pool = PostgresConnectionPool(configuration: settings.database, logger: .init(label: "test.pool"))
        return Gateway.build(settings: settings, pool: pool, metricsRegistry: nil, logger: .quiet)
    }

    static func update(_ client: some TestClientProtocol, _ tenant: Tenant, activity: String) async throws -> String {
        let response = try await client.execute(
            uri: "/messages/live_activity/update", method: .post, headers: .bearer(tenant.secret).merging(.json),
            body: ByteBuffer(string: #"{"app_id":"\#(tenant.app.identifier)","activity_id":"\#(activity)","content_state":{"n":1}}"#))
        #expect(response.status == .created)
        let body = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
        return try #require(body?["dispatch_id"] as? String)
    }

    static func get(_ client: some TestClientProtocol, _ tenant: Tenant, _ uri: String) async throws -> HTTPResponse.Status {
        try await client.execute(uri: uri, method: .get, headers: .bearer(tenant.secret)).status
    }

    /// A gateway whose standby is a fault proxy in front of the test's own database, driven by `body`.
    static func withProxiedStandby(
        _ body: @escaping @Sendable (Tenant, PostgresFaultProxy, any TestClientProtocol) async throws -> Void
    ) async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let standby = try PostgresFaultProxy.inFrontOfTestPostgres()
            defer { standby.close() }
            let app = try Self.gateway(database, readURL: standby.connectionString(through: database.connectionString))
            try await app.test(.live) { client in try await body(tenant, standby, client) }
        }
    }

    @Test func theReadOnlyRoutesReadTheStandbyAndWritesGoToThePrimary() async throws {
        try await Self.withProxiedStandby { tenant, standby, client in
            let dispatch = try await Self.update(client, tenant, activity: "order-1")
            #expect(standby.statements(containing: "INSERT INTO dispatches") == 0, "a write never goes to the standby")
            let app = tenant.app.identifier
            #expect(try await Self.get(client, tenant, "/messages/live_activity/dispatches/\(dispatch)") == .ok)
            #expect(try await Self.get(client, tenant, "/live_activity/activities/order-1?app_id=\(app)") == .ok)
            #expect(try await Self.get(client, tenant, "/message_activity_log?app_id=\(app)") == .ok)
            #expect(standby.statements(containing: "FROM dispatches d") >= 1, "the dispatch was read on the standby")
            #expect(standby.statements(containing: "activity_log") >= 1, "the log was read on the standby")
        }
    }

    @Test func aStandbyThatIsGoneOrFrozenLeavesTheReadsToThePrimary() async throws {
        try await Self.withProxiedStandby { tenant, standby, client in
            let dispatch = try await Self.update(client, tenant, activity: "order-2")
            let uri = "/messages/live_activity/dispatches/\(dispatch)"
            #expect(try await Self.get(client, tenant, uri) == .ok)

            // Hung: the read waits out its deadline (1 s here), then the primary answers.
            standby.freeze()
            let started = ContinuousClock.now
            #expect(try await Self.get(client, tenant, uri) == .ok)
            #expect(ContinuousClock.now - started < .seconds(4))

            // Gone: refused at once, the primary answers.
            standby.close()
            #expect(try await Self.get(client, tenant, uri) == .ok)
            #expect(try await Self.get(client, tenant, "/message_activity_log?app_id=\(tenant.app.identifier)") == .ok)
        }
    }

    @Test func aDispatchTheStandbyDoesNotHaveYetIsReadFromThePrimary() async throws {
        try await TestDatabase.with { database in
            // A standby far behind: another database, migrated, holding none of this one's rows.
            try await TestDatabase.with { behind in
                let tenant = try await database.makeTenant()
                let app = try Self.gateway(database, readURL: behind.connectionString)
                try await app.test(.live) { client in
                    let dispatch = try await Self.update(client, tenant, activity: "order-3")
                    #expect(
                        try await Self.get(client, tenant, "/messages/live_activity/dispatches/\(dispatch)") == .ok,
                        "a 201's dispatch is never a 404")
                    let missing = UUID().uuidString.lowercased()
                    #expect(try await Self.get(client, tenant, "/messages/live_activity/dispatches/\(missing)") == .notFound)
                }
            }
        }
    }
}
