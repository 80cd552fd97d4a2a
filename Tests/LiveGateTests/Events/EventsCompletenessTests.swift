import APNsCore
import Foundation
import HTTPTypes
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

/// What changes in the background is told too: tokens housekeeping retires, written by the statement
/// that makes the change, and only while someone subscribes. The events are read from their table: what is written, not how it is paged.
@Suite("Events out: written for background changes", .requiresPostgres)
struct EventsCompletenessTests {
    /// One written event: whose it is, and its fields.
    struct Written {
        let workspaceID: UUID
        let appID: UUID?
        let fields: JSONValue

        subscript(_ name: String) -> JSONValue? { fields[name] }
    }

    /// The events of `type`, in the order they were written.
    static func written(_ type: String, in database: TestDatabase) async throws -> [Written] {
        try await database.pool.query("SELECT workspace_id, app_id, data FROM events WHERE type = $1 ORDER BY xid, id", [type]).map {
            Written(
                workspaceID: try $0.require("workspace_id"), appID: try $0.decode("app_id"),
                fields: try JSONValue.parse(try $0.require("data", as: String.self)))
        }
    }

    /// Who subscribes, as every gateway reads it: the tenants' keys have `events.read` unless taken away.
    static func interest(_ database: TestDatabase) async throws -> PostgresEventInterest {
        let interest = PostgresEventInterest(pool: database.pool)
        try await interest.reload()
        return interest
    }

    /// No key reads events and no endpoint takes them.
    static func unsubscribe(_ database: TestDatabase) async throws {
        try await database.pool.query("UPDATE api_keys SET permissions = array_remove(permissions, 'events.read')")
    }

    /// Makes a token stale: not refreshed for longer than the 12 hours housekeeping keeps it.
    static func age(device: String, in database: TestDatabase) async throws {
        try await database.pool.query(
            "UPDATE activity_tokens SET updated_at = now() - interval '12 hours 1 minute' WHERE device_id = $1", [device])
    }

    static func housekeeping(_ database: TestDatabase, events: (any EventInterest)?) async throws -> Housekeeping.Report {
        try await Housekeeping(pool: database.pool, events: events).run(tokenLifetime: .seconds(12 * 3600), retention: .seconds(60 * 3600))
    }

    /// A workspace reading every event, one whose endpoint takes `token.removed` for its app only, and one
    /// no one reads: each has a stale token and a fresh one. Each stale token retired is an `expired`
    /// removal, told to its own workspace and app, except the unread workspace's.
    @Test func tokensHousekeepingRetiresAreRemovalsForTheirSubscribersOnly() async throws {
        try await TestDatabase.with { database in
            let reader = try await database.makeTenant()
            let hooked = try await database.makeTenant(permissions: [.liveActivityUpdate])
            let unread = try await database.makeTenant(permissions: [.liveActivityUpdate])
            try await database.pool.query(
                """
                INSERT INTO webhook_endpoints (workspace_id, app_id, url, event_types, secret, cursor_xid)
                VALUES ($1, $2, 'https://hooks.example.com/livegate', ARRAY['token.removed'], 'secret', pg_current_xact_id())
                """, [hooked.workspace.id, hooked.app.id])
            for (index, tenant) in [reader, hooked, unread].enumerated() {
                try await database.registerToken(
                    tenant, tag: "order-\(index)", device: "stale-\(index)", token: token(0xb0 + index), externalID: "fan-\(index)")
                try await database.registerToken(tenant, tag: "order-\(index)", device: "fresh-\(index)", token: token(0xc0 + index))
                try await Self.age(device: "stale-\(index)", in: database)
            }
            let report = try await Self.housekeeping(database, events: try await Self.interest(database))
            #expect(report.retiredTokens == 3)
            #expect(try await database.count("SELECT count(*) FROM activity_tokens WHERE device_id LIKE 'fresh-%'") == 3)

            let removed = try await Self.written("token.removed", in: database)
            #expect(removed.count == 2, "the unread workspace's is not written")
            for (index, tenant) in [reader, hooked].enumerated() {
                let event = try #require(removed.first { $0.workspaceID == tenant.workspace.id })
                #expect(event.appID == tenant.app.id)
                #expect(event["reason"]?.stringValue == "expired")
                #expect(event["token_kind"]?.stringValue == "update")
                #expect(event["activity_id"]?.stringValue == "order-\(index)")
                #expect(event["activity_attributes_type"] == .null)
                #expect(event["device_id"]?.stringValue == "stale-\(index)")
                #expect(event["external_id"]?.stringValue == "fan-\(index)")
                #expect(event["token"]?.stringValue == String(token(0xb0 + index).suffix(8)))
            }
            #expect(try await database.count("SELECT count(*) FROM events") == 2, "nothing else is written")
        }
    }

    /// With no one subscribed, housekeeping retires as it always did and writes nothing.
    @Test func tokensHousekeepingRetiresWithNoSubscriberAreNoEvents() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await Self.unsubscribe(database)
            try await database.registerToken(tenant, tag: "order-1", device: "stale", token: token(0xb8))
            try await Self.age(device: "stale", in: database)
            let report = try await Self.housekeeping(database, events: try await Self.interest(database))
            #expect(report.retiredTokens == 1)
            #expect(try await database.count("SELECT count(*) FROM events") == 0)
        }
    }
}
