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

/// What changes in the background is told too: tokens housekeeping retires, and pending dispatches a
/// claim or a handover supersedes, each written by the statement that makes the change, and only while
/// someone subscribes. The events are read from their table: what is written, not how it is paged.
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

    /// A dispatch of `tenant`, committed through the store as the API commits it.
    static func commit(_ dispatch: Dispatch, in database: TestDatabase) async throws -> Dispatch {
        try await PostgresDispatchStore(pool: database.pool).commit(dispatch)
        return dispatch
    }

    /// Two updates of one activity as if committed at once: the older one's supersession by the newer
    /// one's commit is undone, so the older is pending again beside it.
    static func twoUpdatesAsIfCommittedAtOnce(
        _ tenant: Tenant, in database: TestDatabase
    ) async throws -> (older: Dispatch, newer: Dispatch) {
        let older = try await commit(tenant.update(score: 1), in: database)
        let newer = try await commit(tenant.update(score: 2), in: database)
        try await database.pool.query(
            "UPDATE dispatches SET status = 'pending', superseded_by = NULL, completed_at = NULL WHERE id = $1", [older.id])
        return (older, newer)
    }

    /// An update waiting for a retry (handed back after a failed attempt, due in an hour) and a
    /// scheduled one of the same activity: when the scheduled one becomes due, the claim that takes it
    /// supersedes the waiting one, which ends there, and its `dispatch.superseded` is written there.
    static func aScheduledUpdateBecomesDueOverAWaitingOne(
        _ database: TestDatabase, _ tenant: Tenant, events: (any EventInterest)?
    ) async throws -> (waiting: Dispatch, scheduled: Dispatch, claimed: [ClaimedDispatch]) {
        let scheduled = try await commit(
            Dispatch(
                workspaceID: tenant.workspace.id, appID: tenant.app.id, event: .update, activityID: "m", externalID: nil,
                payload: Array(#"{"score":2}"#.utf8), priority: .immediate, expiresAt: Date().addingTimeInterval(7200),
                sendAt: Date().addingTimeInterval(3600)),
            in: database)
        let waiting = try await commit(tenant.update(score: 1, externalID: "fan-1"), in: database)
        try await database.pool.query("UPDATE dispatches SET next_attempt_at = now() + interval '1 hour' WHERE id = $1", [waiting.id])
        // Time passes (moved, not waited for).
        try await database.pool.query("UPDATE dispatches SET send_at = now(), next_attempt_at = now() WHERE id = $1", [scheduled.id])
        let claimed = try await PostgresDeliveryQueue(pool: database.pool, events: events).claim(
            worker: "w", limit: 10, lease: .seconds(30))
        return (waiting, scheduled, claimed)
    }

    @Test func aPendingDispatchSupersededAtAClaimIsAnEvent() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let (waiting, scheduled, claimed) = try await Self.aScheduledUpdateBecomesDueOverAWaitingOne(
                database, tenant, events: try await Self.interest(database))
            #expect(claimed.map(\.dispatch.id) == [scheduled.id])
            let superseded = try await Self.written("dispatch.superseded", in: database)
            #expect(superseded.count == 1, "\(superseded.map(\.fields))")
            let event = try #require(superseded.first)
            #expect(event.workspaceID == tenant.workspace.id && event.appID == tenant.app.id)
            #expect(event["dispatch_id"]?.stringValue == waiting.id.uuidString.lowercased())
            #expect(event["superseded_by"]?.stringValue == scheduled.id.uuidString.lowercased())
            #expect(event["activity_id"]?.stringValue == "m" && event["external_id"]?.stringValue == "fan-1")
            #expect(event["event"]?.stringValue == "update" && event["status"]?.stringValue == "superseded")
            #expect(["sent", "failed", "removed"].map { event[$0]?.numberLexeme } == ["0", "0", "0"])
            #expect(
                try await database.count("SELECT count(*) FROM dispatches WHERE status = 'superseded' AND completed_at IS NOT NULL") == 1)
        }
    }

    @Test func aPendingDispatchSupersededAtAClaimWithNoSubscriberIsNoEvent() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await Self.unsubscribe(database)
            let (waiting, scheduled, _) = try await Self.aScheduledUpdateBecomesDueOverAWaitingOne(
                database, tenant, events: try await Self.interest(database))
            let row = try await database.pool.query("SELECT status, superseded_by FROM dispatches WHERE id = $1", [waiting.id])[0]
            #expect(try row.require("status", as: String.self) == "superseded")
            #expect(try row.require("superseded_by", as: UUID.self) == scheduled.id)
            #expect(try await database.count("SELECT count(*) FROM events") == 0)
        }
    }

    /// Two updates of one activity committed at once by two gateways, neither seeing the other: the
    /// newer is handed over to this gateway's engine at its commit, and its handover supersedes the
    /// older one, still waiting, which ends there with its event.
    @Test func aPendingDispatchSupersededAtAHandoverIsAnEvent() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let (older, newer) = try await Self.twoUpdatesAsIfCommittedAtOnce(tenant, in: database)
            // Leased as a handover does.
            try await database.pool.query(
                """
                UPDATE dispatches SET status = 'delivering', leased_by = 'w', leased_until = now() + interval '30 seconds', attempts = 1
                WHERE id = $1
                """, [newer.id])
            let queue = PostgresDeliveryQueue(pool: database.pool, events: try await Self.interest(database))
            #expect(try await queue.supersedeOnHandover([newer]) == [older.id: newer.id])
            let superseded = try await Self.written("dispatch.superseded", in: database)
            #expect(superseded.map { $0["dispatch_id"]?.stringValue } == [older.id.uuidString.lowercased()])
            #expect(superseded.first?["superseded_by"]?.stringValue == newer.id.uuidString.lowercased())
            #expect(superseded.first?["status"]?.stringValue == "superseded")
            #expect(superseded.first?["external_id"] == .null)
        }
    }

    /// Starts to an audience supersede at their claim only: an older one waiting for a retry ends there,
    /// with its event.
    @Test func aPendingStartToAnAudienceSupersededAtAClaimIsAnEvent() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client in
                var ids: [String] = []
                for score in ["0-0", "1-0"] {
                    let body = #"""
                        {"app_id":"\#(tenant.app.identifier)","activity_id":"final","activity_attributes_type":"MatchAttributes",
                         "activity_attributes":{"home":"A","away":"B"},"content_state":{"score":"\#(score)"},
                         "custom_audience":{"custom_attribute":{"custom_attribute_name":"team","comparison":"equals","value":"lions"}},
                         "notification":{"alert":{"title":"Kick-off","body":"A v B"}}}
                        """#
                    let response = try await client.post("/messages/live_activity/start", body, key: tenant.secret)
                    #expect(response.status == .created, "\(response.text)")
                    ids.append(try #require(response.dispatchID))
                    if ids.count == 1 {
                        try await database.pool.query(
                            "UPDATE dispatches SET next_attempt_at = now() + interval '1 hour' WHERE id = $1", [ids[0]])
                    }
                }
                let queue = PostgresDeliveryQueue(pool: database.pool, events: try await Self.interest(database))
                let claimed = try await queue.claim(worker: "w", limit: 10, lease: .seconds(30))
                #expect(claimed.map { $0.dispatch.id.uuidString.lowercased() } == [ids[1].lowercased()])
                let superseded = try await Self.written("dispatch.superseded", in: database)
                #expect(superseded.count == 1)
                let event = try #require(superseded.first)
                #expect(event["dispatch_id"]?.stringValue == ids[0].lowercased())
                #expect(event["superseded_by"]?.stringValue == ids[1].lowercased())
                #expect(event["event"]?.stringValue == "start" && event["activity_id"]?.stringValue == "final")
            }
        }
    }

    /// A dispatch already being delivered when a claim supersedes it is not ended by the claim: no event
    /// then. Its worker ends it as superseded, and that end is the event, naming the newer dispatch.
    @Test func aDeliveringDispatchSupersededIsAnEventWhenItsWorkerEndsIt() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            // Neither seeing the other: one claim takes both.
            let (older, newer) = try await Self.twoUpdatesAsIfCommittedAtOnce(tenant, in: database)
            let queue = PostgresDeliveryQueue(pool: database.pool, events: try await Self.interest(database))
            let claimed = try await queue.claim(worker: "w", limit: 10, lease: .seconds(30))
            let stopped = try #require(claimed.first { $0.dispatch.id == older.id })
            #expect(stopped.stop == .superseded)
            #expect(try await Self.written("dispatch.superseded", in: database).isEmpty, "still being delivered")
            let settled = try await queue.settle([DispatchSettlement(stopped, .finished(.superseded))], worker: "w")
            #expect(settled == [older.id])
            let superseded = try await Self.written("dispatch.superseded", in: database)
            #expect(superseded.map { $0["dispatch_id"]?.stringValue } == [older.id.uuidString.lowercased()])
            #expect(superseded.first?["superseded_by"]?.stringValue == newer.id.uuidString.lowercased())
            #expect(superseded.first?["status"]?.stringValue == "superseded")
        }
    }

    /// The commit's own `dispatch.superseded` names the newer dispatch too, as the claim's does.
    @Test func aDispatchSupersededAtItsNewerOnesCommitNamesIt() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let store = PostgresDispatchStore(pool: database.pool, events: try await Self.interest(database))
            let older = tenant.update(score: 1)
            let newer = tenant.update(score: 2)
            try await store.commit(older)
            try await store.commit(newer)
            let superseded = try await Self.written("dispatch.superseded", in: database)
            #expect(superseded.map { $0["dispatch_id"]?.stringValue } == [older.id.uuidString.lowercased()])
            #expect(superseded.first?["superseded_by"]?.stringValue == newer.id.uuidString.lowercased())
        }
    }
}
