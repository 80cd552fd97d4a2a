import APNsSimulator
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

@Suite("Housekeeping: stale tokens, log retention, finished dispatches, past quota windows", .requiresPostgres)
struct HousekeepingTests {
    @Test func tokensNotRefreshedForTwelveHoursAreNotSentAndAreRetired() async throws {
        try await DeliveryHarness.with { harness in
            try await harness.register(token(0xa1), device: "fresh")
            try await harness.register(token(0xa2), device: "stale")
            try await harness.database.pool.query(
                "UPDATE activity_tokens SET updated_at = now() - interval '12 hours 1 minute' WHERE device_id = 'stale'")
            try await harness.update(#""content_state":{"n":1}"#)
            try await harness.engine.deliverDue()
            #expect(harness.simulator.received.map(\.deviceToken) == [token(0xa1)])

            let report = try await Housekeeping(pool: harness.database.pool)
                .run(tokenLifetime: .seconds(12 * 3600), retention: .seconds(60 * 3600))
            #expect(report.retiredTokens == 1)
            #expect(try await harness.tokens() == [token(0xa1)])
        }
    }

    @Test func theLogAndFinishedDispatchesAreKeptForTheRetentionPeriod() async throws {
        try await DeliveryHarness.with { harness in
            // Two failures logged by real deliveries: one is then made 61 hours old, one stays recent.
            let old = try await harness.update(#""content_state":{"n":1}"#, activityID: "nobody-1")
            let recent = try await harness.update(#""content_state":{"n":2}"#, activityID: "nobody-2")
            let pending = try await harness.update(#""content_state":{"n":3}"#, activityID: "nobody-3")
            try await harness.database.pool.query(
                "UPDATE dispatches SET next_attempt_at = now() + interval '1 hour' WHERE id = $1", [pending])
            try await harness.engine.deliverDue()
            #expect(try await harness.log().count == 2)
            try await harness.database.pool.query(
                "UPDATE message_activity_log SET occurred_at = now() - interval '61 hours' WHERE dispatch_id = $1", [old])
            try await harness.database.pool.query(
                "UPDATE dispatches SET completed_at = now() - interval '61 hours' WHERE id = $1", [old])
            try await harness.database.pool.query(
                "UPDATE message_activity_log_hours SET hour = hour - interval '62 hours'")
            try await harness.database.pool.query(
                """
                INSERT INTO message_activity_log_hours (app_id, type, hour, workspace_id, total)
                VALUES ($1, 'Other Live Activity errors', date_trunc('hour', now()), $2, 1)
                """, [harness.tenant.app.id, harness.tenant.workspace.id])
            // An activity's payload mismatches go with the log entries beside them.
            try await harness.database.pool.query(
                """
                INSERT INTO activity_payload_mismatches (app_id, activity_id, hour, message)
                VALUES ($1, 'game-42', date_trunc('hour', now()) - interval '62 hours', 'old'),
                       ($1, 'game-42', date_trunc('hour', now()), 'recent')
                """, [harness.tenant.app.id])
            // So do its priority-budget hours.
            try await harness.database.pool.query(
                """
                INSERT INTO activity_priority_hours (app_id, activity_id, hour, sent_high)
                VALUES ($1, 'game-42', date_trunc('hour', now()) - interval '62 hours', 1),
                       ($1, 'game-42', date_trunc('hour', now()), 2)
                """, [harness.tenant.app.id])

            let report = try await Housekeeping(pool: harness.database.pool)
                .run(tokenLifetime: .seconds(12 * 3600), retention: .seconds(60 * 3600))
            #expect(report.logEntries == 1)
            #expect(report.logHours == 1)
            #expect(report.payloadMismatches == 1)
            #expect(report.priorityHours == 1)
            #expect(try await harness.database.count("SELECT count(*) FROM activity_priority_hours WHERE sent_high = 2") == 1)
            #expect(try await harness.database.count("SELECT count(*) FROM activity_payload_mismatches WHERE message = 'recent'") == 1)
            #expect(report.dispatches == 1)
            #expect(try await harness.log().map { try $0.require("dispatch_id", as: String.self) } == [recent.lowercased()])
            let remaining = try await harness.database.pool.query("SELECT id FROM dispatches ORDER BY created_at")
                .map { try $0.require("id", as: String.self) }
            #expect(Set(remaining) == [recent.lowercased(), pending.lowercased()], "pending work is never purged")
            #expect(try await harness.database.count("SELECT count(*) FROM message_activity_log_hours") == 1)
        }
    }

    /// Superseded and cancelled dispatches are finished too: kept as long as the log, then deleted like
    /// done and failed ones, never left behind.
    @Test func supersededAndCancelledDispatchesGoWithTheLog() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant(permissions: [.liveActivityUpdate])
            let ids = try await TestGateway.app(database).test(.router) { client in
                // Nothing delivers here: the first is superseded by the second, the third cancelled.
                var ids: [String] = []
                for (n, activity) in ["game-1", "game-1", "game-2"].enumerated() {
                    let response = try await client.post(
                        "/messages/live_activity/update",
                        #"{"app_id":"\#(tenant.app.identifier)","activity_id":"\#(activity)","content_state":{"n":\#(n)}}"#,
                        key: tenant.secret)
                    ids.append(try #require(response.dispatchID))
                }
                let cancelled = try await client.execute(
                    uri: "/messages/live_activity/dispatches/\(ids[2])", method: .delete, headers: .bearer(tenant.secret))
                #expect(cancelled.status == .ok, "\(cancelled.text)")
                return ids
            }
            let statuses = try await database.pool.query("SELECT status FROM dispatches ORDER BY sequence")
                .map { try $0.require("status", as: String.self) }
            #expect(statuses == ["superseded", "pending", "cancelled"])
            let housekeeping = Housekeeping(pool: database.pool)
            #expect(try await housekeeping.run(tokenLifetime: .seconds(43_200), retention: .seconds(216_000)).dispatches == 0)
            try await database.pool.query("UPDATE dispatches SET completed_at = now() - interval '61 hours' WHERE completed_at IS NOT NULL")
            #expect(try await housekeeping.run(tokenLifetime: .seconds(43_200), retention: .seconds(216_000)).dispatches == 2)
            let remaining = try await database.pool.query("SELECT id FROM dispatches").map { try $0.require("id", as: String.self) }
            #expect(remaining == [ids[1]])
        }
    }

    @Test func pastQuotaWindowsAreDeleted() async throws {
        try await TestDatabase.with { database in
            let workspace = try await database.makeWorkspace()
            let store = PostgresQuotaStore(pool: database.pool)
            let now = Date()
            for hoursAgo in [0, 1, 3] {
                _ = try await store.lease(
                    workspaceID: workspace.id, window: now.addingTimeInterval(Double(-hoursAgo * 3600)), wanted: 5, limit: 100)
            }
            let report = try await Housekeeping(pool: database.pool).run(tokenLifetime: .seconds(43_200), retention: .seconds(216_000))
            #expect(report.rateLimitWindows == 1)
            #expect(try await database.count("SELECT count(*) FROM rate_limit_windows") == 2)
        }
    }
}
