import Foundation
import LiveGateDomain
import PostgresClient

/// Webhook endpoints in `webhook_endpoints`, as the API manages them. A change tells `interest` at once,
/// so this gateway writes (or stops writing) the endpoint's events from its next statement; other
/// gateways see it at their next reload.
package struct PostgresWebhookStore: WebhookStore {
    let pool: PostgresConnectionPool
    let interest: PostgresEventInterest?

    package init(pool: PostgresConnectionPool, interest: PostgresEventInterest?) {
        self.pool = pool
        self.interest = interest
    }

    package func create(
        workspaceID: UUID, appID: UUID?, url: String, eventTypes: [EventType], secret: String
    ) async throws
        -> WebhookEndpoint
    {
        // Starts at the current position: every event of a transaction older than all running ones is
        // behind it, every later one ahead of it.
        let rows = try await pool.query(
            """
            WITH made AS (
                INSERT INTO webhook_endpoints (workspace_id, app_id, url, event_types, secret, cursor_xid, cursor_id)
                VALUES ($1, $2, $3, $4, $5, pg_snapshot_xmin(pg_current_snapshot()), 0)
                RETURNING *)
            SELECT \(Self.columns) FROM made w LEFT JOIN apps a ON a.id = w.app_id
            """,
            [workspaceID, appID, url, eventTypes.map(\.rawValue), secret])
        await reloadInterest()
        return try Self.endpoint(rows[0])
    }

    package func list(workspaceID: UUID) async throws -> [WebhookEndpoint] {
        let rows = try await pool.query(
            """
            SELECT \(Self.columns) FROM webhook_endpoints w LEFT JOIN apps a ON a.id = w.app_id
            WHERE w.workspace_id = $1 ORDER BY w.created_at, w.id
            """, [workspaceID])
        return try rows.map(Self.endpoint)
    }

    package func endpoint(id: UUID, workspaceID: UUID) async throws -> WebhookEndpoint? {
        let rows = try await pool.query(
            """
            SELECT \(Self.columns) FROM webhook_endpoints w LEFT JOIN apps a ON a.id = w.app_id
            WHERE w.id = $1 AND w.workspace_id = $2
            """, [id, workspaceID])
        return try rows.first.map(Self.endpoint)
    }

    package func delete(id: UUID, workspaceID: UUID) async throws -> Bool {
        let deleted =
            try await pool.query("DELETE FROM webhook_endpoints WHERE id = $1 AND workspace_id = $2", [id, workspaceID])
            .affectedRowCount > 0
        if deleted { await reloadInterest() }
        return deleted
    }

    package func resume(id: UUID, workspaceID: UUID, by key: APIKey?) async throws -> WebhookEndpoint? {
        let resumed = try await pool.transaction { connection -> WebhookEndpoint? in
            // What it was before (locked until the commit): whether it was paused, and after what.
            guard
                let before = try connection.query(
                    """
                    SELECT paused_at, failures, last_error, url, app_id FROM webhook_endpoints
                    WHERE id = $1 AND workspace_id = $2 FOR UPDATE
                    """, [id, workspaceID]
                ).first
            else { return nil }
            let rows = try connection.query(
                """
                WITH resumed AS (
                    UPDATE webhook_endpoints
                    SET paused_at = NULL, failures = 0, failing_since = NULL, next_attempt_at = now()
                    WHERE id = $1 AND workspace_id = $2
                    RETURNING *)
                SELECT \(Self.columns) FROM resumed w LEFT JOIN apps a ON a.id = w.app_id
                """, [id, workspaceID])
            // Resuming one that was not paused only clears its failures: nothing to log.
            if let pausedAt: Date = try before.decode("paused_at") {
                let entry = WebhookLogEntries.resumed(
                    webhookID: id, url: try before.require("url"), pausedAt: pausedAt, failures: try before.require("failures"),
                    lastError: try before.decode("last_error"), keyID: key?.id, keyName: key?.name)
                try WebhookLogStatement.insert(entry, workspaceID: workspaceID, appID: try before.decode("app_id"), on: connection)
            }
            return try rows.first.map(Self.endpoint)
        }
        guard let resumed else { return nil }
        await reloadInterest()
        return resumed
    }

    /// A failed reload leaves the last snapshot, which the periodic reload replaces within seconds: the
    /// change itself is committed, so it is not reported as failed.
    private func reloadInterest() async {
        try? await interest?.reload()
    }

    /// The endpoint's columns, its app's identifier, when a failing one is tried again, and its lag: from the oldest event it takes that it
    /// was not sent to now (one index range scan from its cursor, stopping at the first match).
    static let columns = """
        w.id, w.workspace_id, a.app_identifier, w.url, w.event_types, w.created_at, w.paused_at, w.failures,
        w.failing_since, w.last_error, w.last_delivered_at, w.delivered_events,
        CASE WHEN w.failures > 0 AND w.paused_at IS NULL THEN w.next_attempt_at END AS retry_at,
        coalesce((
            SELECT (extract(epoch FROM now() - e.occurred_at) * 1000)::bigint FROM events e
            WHERE e.workspace_id = w.workspace_id AND (e.xid, e.id) > (w.cursor_xid, w.cursor_id)
              AND (w.app_id IS NULL OR e.app_id IS NULL OR e.app_id = w.app_id) AND e.type = ANY(w.event_types)
            ORDER BY e.xid, e.id LIMIT 1), 0) AS lag_milliseconds
        """

    static func endpoint(_ row: PostgresRow) throws -> WebhookEndpoint {
        WebhookEndpoint(
            id: try row.require("id"), workspaceID: try row.require("workspace_id"), appIdentifier: try row.decode("app_identifier"),
            url: try row.require("url"), eventTypes: try row.require("event_types", as: [String].self).map(EventType.init(rawValue:)),
            createdAt: try row.require("created_at"), pausedAt: try row.decode("paused_at"), failures: try row.require("failures"),
            failingSince: try row.decode("failing_since"), lastError: try row.decode("last_error"), retryAt: try row.decode("retry_at"),
            lastDeliveredAt: try row.decode("last_delivered_at"), deliveredEvents: try row.require("delivered_events"),
            lag: .milliseconds(max(0, try row.require("lag_milliseconds", as: Int64.self))))
    }
}
