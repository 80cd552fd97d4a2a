import Foundation
import LiveGateDomain
import PostgresClient

/// Webhook endpoints as senders lease and record them. One statement per poll for all of them: an
/// idle gateway asks PostgreSQL once per poll whether any endpoint has an event waiting.
package struct PostgresWebhookQueue: WebhookQueue {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) {
        self.pool = pool
    }

    /// Due, not paused, not leased to another live sender, with an event of its types (and app) past
    /// its cursor in a transaction older than every running one (what `EventLog` would read).
    static let lease = PostgresStatement(
        name: "livegate_webhook_lease",
        sql: """
            UPDATE webhook_endpoints w SET leased_by = $1, leased_until = now() + $2 * interval '1 millisecond'
            FROM (
                SELECT c.id FROM webhook_endpoints c
                WHERE c.paused_at IS NULL AND c.next_attempt_at <= now()
                  AND (c.leased_until IS NULL OR c.leased_until < now() OR c.leased_by = $1)
                  AND NOT (c.id = ANY($4::text[]::uuid[]))
                  AND EXISTS (
                      SELECT 1 FROM events e
                      WHERE e.workspace_id = c.workspace_id AND (e.xid, e.id) > (c.cursor_xid, c.cursor_id)
                        AND e.xid < pg_snapshot_xmin(pg_current_snapshot())
                        AND (c.app_id IS NULL OR e.app_id IS NULL OR e.app_id = c.app_id) AND e.type = ANY(c.event_types))
                ORDER BY c.next_attempt_at
                LIMIT $3
                FOR UPDATE SKIP LOCKED) picked
            WHERE w.id = picked.id
            RETURNING w.id, w.workspace_id, w.app_id, w.url, w.event_types, w.secret, w.cursor_xid::text AS cursor_xid, w.cursor_id,
                w.failures
            """)

    package func lease(worker: String, for lease: Duration, limit: Int, excluding: Set<UUID>) async throws -> [LeasedWebhook] {
        let rows = try await pool.withConnection { connection in
            try connection.query(
                Self.lease, [worker, lease.milliseconds, limit, excluding.map { $0.uuidString.lowercased() }])
        }
        return try rows.map { row in
            guard let transaction = UInt64(try row.require("cursor_xid", as: String.self)) else {
                throw PostgresError(code: .decodingFailed, message: "a webhook endpoint's cursor is not a number")
            }
            return LeasedWebhook(
                id: try row.require("id"), workspaceID: try row.require("workspace_id"), appID: try row.decode("app_id"),
                url: try row.require("url"),
                eventTypes: Set(try row.require("event_types", as: [String].self).map(EventType.init(rawValue:))),
                secret: try row.require("secret"),
                cursor: EventPosition(transaction: transaction, id: try row.require("cursor_id")),
                failures: try row.require("failures"))
        }
    }

    package func renew(_ id: UUID, worker: String, for lease: Duration) async throws -> Bool {
        try await pool.query(
            """
            UPDATE webhook_endpoints SET leased_until = now() + $3 * interval '1 millisecond'
            WHERE id = $1 AND leased_by = $2 AND paused_at IS NULL
            """, [id, worker, lease.milliseconds]
        ).affectedRowCount > 0
    }

    package func delivered(_ id: UUID, worker: String, through position: EventPosition, count: Int) async throws -> Bool {
        try await pool.query(
            """
            UPDATE webhook_endpoints
            SET cursor_xid = $3::text::xid8, cursor_id = $4, delivered_events = delivered_events + $5,
                last_delivered_at = now(), failures = 0, failing_since = NULL, next_attempt_at = now()
            WHERE id = $1 AND leased_by = $2 AND (cursor_xid, cursor_id) < ($3::text::xid8, $4::bigint)
            """, [id, worker, String(position.transaction), position.id, count]
        ).affectedRowCount > 0
    }

    /// A pause writes its activity log entry in the same transaction: an endpoint is never paused
    /// without its entry, nor logged as paused by a change that rolled back.
    package func failed(
        _ id: UUID, worker: String, error: String, retryAfter: Duration, retryPeriod: Duration
    ) async throws
        -> WebhookFailure?
    {
        try await pool.transaction { connection -> WebhookFailure? in
            let rows = try connection.query(
                """
                UPDATE webhook_endpoints
                SET failures = failures + 1, failing_since = coalesce(failing_since, now()), last_error = left($3, 500),
                    next_attempt_at = now() + $4 * interval '1 millisecond',
                    paused_at = CASE WHEN coalesce(failing_since, now()) <= now() - $5 * interval '1 millisecond' THEN now() END,
                    leased_by = NULL, leased_until = NULL
                WHERE id = $1 AND leased_by = $2
                RETURNING failures, failing_since, paused_at IS NOT NULL AS paused, workspace_id, app_id, url, last_error
                """, [id, worker, error, retryAfter.milliseconds, retryPeriod.milliseconds])
            guard let row = rows.first else { return nil }
            let failure = WebhookFailure(
                failures: try row.require("failures"), failingSince: try row.require("failing_since"), paused: try row.require("paused"))
            if failure.paused {
                let entry = WebhookLogEntries.paused(
                    webhookID: id, url: try row.require("url"), failures: failure.failures, failingSince: failure.failingSince,
                    lastError: try row.decode("last_error"))
                try WebhookLogStatement.insert(
                    entry, workspaceID: try row.require("workspace_id"), appID: try row.decode("app_id"), on: connection)
            }
            return failure
        }
    }

    package func release(_ id: UUID, worker: String) async throws {
        _ = try await pool.query(
            "UPDATE webhook_endpoints SET leased_by = NULL, leased_until = NULL WHERE id = $1 AND leased_by = $2", [id, worker])
    }
}

extension Duration {
    /// Whole milliseconds, for intervals in SQL.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
