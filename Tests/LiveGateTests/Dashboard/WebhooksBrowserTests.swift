import Foundation
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

/// The webhooks page driven in Debian's headless Chromium by `Tests/Browser/webhooks_test.py` (Python
/// Selenium, like the other pages' scripts) against a gateway on a real socket: it lists four endpoints
/// as `GET /webhooks` reports them and resumes the paused one, which the database then shows, with the
/// resumption's activity log entry naming the key.
/// Set `LIVEGATE_DASHBOARD_SCREENSHOT` to a .png path to keep screenshots of the page.
@Suite("Webhooks page in headless Chromium", .heavy, .requiresPostgres)
struct WebhooksBrowserTests {
    static let script = Subprocess.repositoryRoot.appendingPathComponent("Tests/Browser/webhooks_test.py").path

    /// What the script checks the page against.
    struct Expected: Encodable {
        let key: String
        let key_id: String
        /// May read the log, not manage webhooks.
        let forbidden_key: String
        let ids: [String]
        let app_id: String
        let paused_url: String
        let markup_url: String
    }

    @Test func anAdminSeesTheEndpointsAndResumesAPausedOneInABrowser() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant(permissions: [.webhooksManage, .messageActivityLogRead])
            let (key, secret) = try await database.makeKey(
                in: tenant.workspace, permissions: [.webhooksManage, .messageActivityLogRead], name: "dashboard")
            let (_, forbidden) = try await database.makeKey(in: tenant.workspace, permissions: [.messageActivityLogRead], name: "reader")
            let store = PostgresWebhookStore(pool: database.pool, interest: nil)
            let pausedURL = "https://paused.example.com/in?token=abc"
            let markupURL = #"https://markup.example.com/<img src=x onerror="window.__pwned=1">"#
            var ids: [String] = []
            for (url, app, types) in [
                ("https://healthy.example.com/hook", Optional(tenant.app.id), [EventType.pushSent, .dispatchDone]),
                ("https://failing.example.com/hook", nil, [.pushSent]), (pausedURL, nil, [.pushSent]), (markupURL, nil, [.dispatchDone]),
            ] {
                let made = try await store.create(
                    workspaceID: tenant.workspace.id, appID: app, url: url, eventTypes: types, secret: WebhookSignature.newSecret())
                ids.append(made.id.uuidString.lowercased())
            }
            try await database.pool.query(
                "UPDATE webhook_endpoints SET delivered_events = 1200, last_delivered_at = now() - interval '1 minute' WHERE id = $1::uuid",
                [ids[0]])
            try await database.pool.query(
                """
                UPDATE webhook_endpoints SET failures = 3, failing_since = now() - interval '10 minutes',
                    last_error = 'HTTP 503: <b>busy</b>', next_attempt_at = now() + interval '1 hour'
                WHERE id = $1::uuid
                """, [ids[1]])
            try await database.pool.query(
                """
                UPDATE webhook_endpoints SET failures = 40, failing_since = now() - interval '25 hours',
                    paused_at = now() - interval '1 hour', last_error = 'timed out'
                WHERE id = $1::uuid
                """, [ids[2]])
            // A push.sent of 3,665 s ago that only the failing endpoint has not been sent: 1 h 1 min behind.
            try await database.pool.query(
                """
                INSERT INTO events (workspace_id, app_id, type, occurred_at, data)
                VALUES ($1, $2, 'push.sent', now() - interval '3665 seconds', '{}')
                """, [tenant.workspace.id, tenant.app.id])
            try await database.pool.query(
                """
                UPDATE webhook_endpoints w SET cursor_xid = e.xid, cursor_id = e.id
                FROM (SELECT xid, id FROM events WHERE workspace_id = $1) e
                WHERE w.workspace_id = $1 AND w.id <> $2::uuid
                """, [tenant.workspace.id, ids[1]])

            let expected = Expected(
                key: secret, key_id: key.id.uuidString.lowercased(), forbidden_key: forbidden, ids: ids, app_id: tenant.app.identifier,
                paused_url: pausedURL, markup_url: markupURL)
            let json = String(decoding: try JSONEncoder().encode(expected), as: UTF8.self)
            let output = try await LiveGatewayServer.with(database: database) { (baseURL: String) async throws -> Subprocess.Output in
                try await Subprocess.run("/usr/bin/env", ["python3", Self.script, baseURL, json])
            }
            #expect(
                output.status == 0, "webhooks_test.py exited \(output.status)\n--- stdout\n\(output.stdout)\n--- stderr\n\(output.stderr)")

            // What the page's Resume did, in the database: sending again, and logged with the page's key.
            let endpoint = try await database.pool.query(
                "SELECT paused_at IS NULL AS sending, failures FROM webhook_endpoints WHERE id = $1::uuid", [ids[2]])[0]
            #expect(try endpoint.require("sending", as: Bool.self) && endpoint.require("failures", as: Int.self) == 0)
            let logged = try await database.pool.query(
                "SELECT type, details->>'api_key_id' AS key_id FROM message_activity_log WHERE workspace_id = $1", [tenant.workspace.id])
            #expect(logged.count == 1)
            #expect(try logged.first?.require("type", as: String.self) == "Webhook endpoint resumed")
            #expect(try logged.first?.require("key_id", as: String.self) == key.id.uuidString.lowercased())
        }
    }
}
