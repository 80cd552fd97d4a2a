import APNsCore
import Foundation
import HTTPTypes
import HummingbirdTesting
import LiveGateAPI
import LiveGateDomain
import PostgresClient
import TestSupport
import Testing

/// How sending to an endpoint goes, as `GET /webhooks` reports it for the dashboard's page: a healthy
/// one, a failing one (with when it is tried again), a paused one, and one behind by an hour.
@Suite("Webhook sending state in the API", .requiresPostgres)
struct WebhookSendingStateTests {
    @Test func eachEndpointSaysHowSendingToItGoes() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client in
                var ids: [String] = []
                for name in ["healthy", "failing", "paused", "behind"] {
                    let made = try await client.post(
                        "/webhooks", #"{"url":"https://\#(name).example.com/hook","events":["push.sent"]}"#, key: tenant.secret)
                    #expect(made.status == .created, "\(made.text)")
                    ids.append(try #require(try made.json["webhook_id"]?.stringValue))
                }
                try await database.pool.query(
                    """
                    UPDATE webhook_endpoints SET failures = 3, failing_since = '2025-11-22T08:00:00Z',
                        last_error = 'HTTP 503: busy', next_attempt_at = '2025-11-22T08:05:00.250Z'
                    WHERE id = $1::uuid
                    """, [ids[1]])
                try await database.pool.query(
                    """
                    UPDATE webhook_endpoints SET failures = 40, failing_since = '2025-11-21T08:00:00Z', paused_at = '2025-11-22T08:00:01Z',
                        last_error = 'timed out', next_attempt_at = '2025-11-22T08:04:00Z'
                    WHERE id = $1::uuid
                    """, [ids[2]])
                // An event written an hour ago that no endpoint has been sent (all four take push.sent).
                try await database.pool.query(
                    """
                    INSERT INTO events (workspace_id, app_id, type, occurred_at, data)
                    VALUES ($1, NULL, 'push.sent', now() - interval '3600 seconds', '{}')
                    """, [tenant.workspace.id])
                try await database.pool.query(
                    """
                    UPDATE webhook_endpoints w SET cursor_xid = e.xid, cursor_id = e.id
                    FROM (SELECT xid, id FROM events WHERE workspace_id = $1) e
                    WHERE w.workspace_id = $1 AND w.id <> $2::uuid
                    """, [tenant.workspace.id, ids[3]])

                let list = try await client.execute(uri: "/webhooks", method: .get, headers: .bearer(tenant.secret))
                #expect(list.status == .ok)
                let endpoints = try #require(try list.json["webhooks"]?.arrayValue)
                #expect(endpoints.compactMap { $0["webhook_id"]?.stringValue } == ids, "oldest first")
                let (healthy, failing, paused, behind) = (endpoints[0], endpoints[1], endpoints[2], endpoints[3])

                #expect(healthy["paused"] == .bool(false) && healthy["failures"] == .number("0"))
                #expect(healthy["retry_at"] == .null && healthy["failing_since"] == .null && healthy["last_error"] == .null)

                #expect(failing["paused"] == .bool(false) && failing["failures"] == .number("3"))
                #expect(failing["retry_at"]?.stringValue == "2025-11-22T08:05:00.250Z", "a failing one says when it is tried again")
                #expect(failing["failing_since"]?.stringValue == "2025-11-22T08:00:00.000Z")
                #expect(failing["last_error"]?.stringValue == "HTTP 503: busy")

                #expect(paused["paused"] == .bool(true) && paused["paused_at"]?.stringValue == "2025-11-22T08:00:01.000Z")
                #expect(paused["retry_at"] == .null, "a paused one is not tried again until it is resumed")
                #expect(paused["failures"] == .number("40"))

                // Behind: the hour-old event waits for it alone (the others' cursors are past it).
                let lag = try #require(behind["lag_seconds"]?.doubleValue)
                #expect(lag >= 3600 && lag < 3660, "\(lag)")
                #expect(healthy["lag_seconds"] == .number("0.000"))

                // Resumed: failures cleared, due at once, no retry time any more.
                let resumed = try await client.post("/webhooks/\(ids[2])/resume", "", key: tenant.secret)
                #expect(resumed.status == .ok, "\(resumed.text)")
                let body = try resumed.json
                #expect(body["paused"] == .bool(false) && body["paused_at"] == .null && body["failures"] == .number("0"))
                #expect(body["retry_at"] == .null && body["failing_since"] == .null)
                #expect(body["last_error"]?.stringValue == "timed out", "the last error stays for people to read")
                #expect(body["message"]?.stringValue == "success")
            }
        }
    }
}
