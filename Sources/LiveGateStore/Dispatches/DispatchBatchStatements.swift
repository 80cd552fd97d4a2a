import LiveGateDomain
import PostgresClient

/// The SQL that covers many dispatches at once: each statement takes a whole batch as parallel arrays
/// (unnest), so a batch of small dispatches costs a few round trips however many it holds. A fan-out is
/// a batch of one at its end and while it waits for older deliveries.
enum DispatchBatchStatements {
    /// Updates and ends: each dispatch's first devices (`FanoutStatements.activityTargets`, per row of
    /// the arrays), a row without a token for a dispatch with none, and whether its activity has a live
    /// broadcast channel. `$1` app ids, `$2` activity ids, `$3` external ids ('' for the whole tag), `$4`
    /// workspace ids, `$5` cursors, `$6` the token lifetime in seconds, `$7` devices per dispatch, `$8`
    /// whether to read each device's frequent-updates setting (an update under a frequent priority
    /// budget; the others never run the lookup).
    static let activityTargets = PostgresStatement(
        name: "livegate_batch_activity_targets",
        sql: """
            SELECT b.ord::int AS ord, t.id, t.push_token, t.external_id,
                   CASE WHEN b.reads_settings AND t.device_id IS NOT NULL
                        THEN \(FanoutStatements.frequentPushesEnabled(app: "b.app_id")) END AS frequent_pushes_enabled,
                   EXISTS (SELECT 1 FROM broadcast_channels c
                           WHERE c.app_id = b.app_id AND c.activity_id = b.activity_id
                             AND c.state IN ('live', 'ending')) AS has_channel
            FROM unnest($1::text[]::uuid[], $2::text[], $3::text[], $4::text[]::uuid[], $5::text[]::bigint[],
                        $8::text[]::boolean[])
                 WITH ORDINALITY AS b(app_id, activity_id, external_id, workspace_id, after_id, reads_settings, ord)
            LEFT JOIN LATERAL (
                SELECT t.id, t.push_token, t.device_id, u.external_id
                FROM activity_tokens t LEFT JOIN users u ON u.id = t.user_id
                WHERE t.app_id = b.app_id AND t.activity_id = b.activity_id AND t.id > b.after_id
                  AND t.updated_at > now() - make_interval(secs => $6)
                  AND (b.external_id = '' OR u.workspace_id = b.workspace_id AND u.external_id = b.external_id)
                ORDER BY t.id LIMIT $7
            ) t ON true
            ORDER BY b.ord, t.id
            """)

    /// Starts: each dispatch's first push-to-start tokens (`FanoutStatements.startTargets`). `$1`
    /// dispatch ids, `$2` cursors, `$3` devices per dispatch.
    static let startTargets = PostgresStatement(
        name: "livegate_batch_start_targets",
        sql: """
            SELECT b.ord::int AS ord, t.id, t.push_token, t.external_id, NULL::boolean AS frequent_pushes_enabled,
                   false AS has_channel
            FROM unnest($1::text[]::uuid[], $2::text[]::bigint[]) WITH ORDINALITY AS b(dispatch_id, after_id, ord)
            LEFT JOIN LATERAL (
                SELECT t.id, t.push_token, u.external_id
                FROM dispatch_targets t LEFT JOIN users u ON u.id = t.user_id
                WHERE t.dispatch_id = b.dispatch_id AND t.id > b.after_id
                ORDER BY t.id LIMIT $3
            ) t ON true
            ORDER BY b.ord, t.id
            """)

    /// For the dispatches of `$1` (ids), the older superseded deliveries to their devices still under
    /// way, and who delivers them: superseded by that dispatch, or by one it superseded in turn.
    /// Looked up per newer dispatch (LATERAL), as `SupersessionStatement` does, whatever the plan.
    static let supersededStillSending = PostgresStatement(
        name: "livegate_batch_superseded_still_sending",
        sql: """
            SELECT n.id AS newer, older.id AS older, older.leased_by
            FROM dispatches n
            CROSS JOIN LATERAL (
                SELECT older.id, older.leased_by FROM dispatches older
                WHERE older.app_id = n.app_id AND older.activity_id = n.activity_id AND older.completed_at IS NULL
                  AND older.status = 'delivering' AND older.superseded_by IS NOT NULL AND older.id <> n.id
                  AND (coalesce(older.send_at, older.created_at), older.sequence)
                      < (coalesce(n.send_at, n.created_at), n.sequence)
                  AND (coalesce(n.external_id, '') = '' OR older.external_id = n.external_id)
                OFFSET 0) older
            WHERE n.id = ANY($1::uuid[])
            """)

    /// Ends the dispatches of the arrays with their counts and cursor (never moved back: a fan-out's
    /// pages recorded it as they went). A `done` one superseded or cancelled while its last pushes went
    /// ends as that. `$1` the worker.
    static let finish = PostgresStatement(
        name: "livegate_batch_finish",
        sql: """
            UPDATE dispatches d
            SET status = CASE WHEN r.status <> 'done' THEN r.status
                              WHEN d.cancel_requested_at IS NOT NULL THEN 'cancelled'
                              WHEN d.superseded_by IS NOT NULL THEN 'superseded'
                              ELSE 'done' END,
                completed_at = now(), leased_by = NULL, leased_until = NULL,
                fanout_cursor = greatest(d.fanout_cursor, r.cursor), sent_count = d.sent_count + r.sent, failed_count = d.failed_count + r.failed,
                retried_count = d.retried_count + r.retried, removed_count = d.removed_count + r.removed
            FROM unnest($2::text[]::uuid[], $3::text[], $4::text[]::bigint[], $5::text[]::int[], $6::text[]::int[],
                        $7::text[]::int[], $8::text[]::int[]) AS r(id, status, cursor, sent, failed, retried, removed)
            WHERE d.id = r.id AND d.leased_by = $1 AND d.status = 'delivering'
            RETURNING d.id, d.status, d.sent_count, d.failed_count, d.removed_count, d.superseded_by
            """)

    /// Hands the dispatches of the arrays back, due at their times, with the retries counted and where
    /// each stood against its app's priority budget ('' when not counted); their cursor stays, so their
    /// devices are sent to again. `$1` the worker.
    static let release = PostgresStatement(
        name: "livegate_batch_release",
        sql: """
            UPDATE dispatches d
            SET status = 'pending', next_attempt_at = r.retry_at, leased_by = NULL, leased_until = NULL,
                retried_count = d.retried_count + r.retried, budget_position = coalesce(r.position, d.budget_position)
            FROM (SELECT id, retry_at, retried, nullif(position, '')::int AS position
                  FROM unnest($2::text[]::uuid[], $3::text[]::timestamptz[], $4::text[]::int[], $5::text[])
                       AS r(id, retry_at, retried, position)) r
            WHERE d.id = r.id AND d.leased_by = $1 AND d.status = 'delivering'
            RETURNING d.id
            """)
}
