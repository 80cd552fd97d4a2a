import APNsCore
import Foundation
import LiveGateDomain
import PostgresClient
import UUIDText

/// Inserts update/end dispatches and, in the same statement, checks whether any device is registered
/// for each and supersedes the older unfinished dispatches each one covers (`SupersessionStatement`):
/// one round trip, atomic on its own (no BEGIN/COMMIT needed outside a transaction).
///
/// The rows travel as one array per column, so the SQL text is the same for any batch size and each
/// connection prepares it once.
enum UpdateDispatchStatement {
    static let statement = PostgresStatement(
        name: "livegate_insert_update_dispatches",
        sql: """
            WITH batch AS (
                SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[],
                                     $7::text[], $8::smallint[], $9::timestamptz[], $10::text[])
                    WITH ORDINALITY AS b(id, workspace_id, app_id, event, activity_id, external_id, payload, priority,
                                         expires_at, send_at, position)
            ),
            -- Sent now, with a lease given ($12 the worker, '' for none): written as a claim leaves it.
            inserted AS (
                INSERT INTO dispatches (id, workspace_id, app_id, event, activity_id, external_id, payload, priority,
                                        expires_at, send_at, next_attempt_at,
                                        status, leased_by, leased_by_session, leased_until, attempts)
                SELECT id, workspace_id, app_id, event, activity_id, nullif(external_id, ''), payload, priority,
                       expires_at, nullif(send_at, '')::timestamptz, coalesce(nullif(send_at, '')::timestamptz, now()),
                       CASE WHEN leased THEN 'delivering' ELSE 'pending' END,
                       CASE WHEN leased THEN $12 END, CASE WHEN leased THEN $13::int END,
                       CASE WHEN leased THEN now() + make_interval(secs => $14) END,
                       CASE WHEN leased THEN 1 ELSE 0 END
                FROM (SELECT *, send_at = '' AND $12::text <> '' AS leased FROM batch) b ORDER BY position
            ),
            -- Only messages sent now supersede at commit; a scheduled one does when it becomes due.
            newer AS (
                SELECT id, app_id, activity_id, event, external_id, position FROM batch
                WHERE send_at = '' AND $11::boolean
            ),
            superseded AS (\(SupersessionStatement.supersede(
                olderThanRowsOf: "newer", newest: "n.position DESC",
                olderCondition: "coalesce(older.send_at, older.created_at) <= now()"))),
            -- Each `dispatch.accepted` event someone subscribes to ($15, '' for none), with its dispatch.
            accepted_events AS (
                INSERT INTO events (workspace_id, app_id, type, data)
                SELECT b.workspace_id, b.app_id, 'dispatch.accepted', e.data
                FROM batch b JOIN unnest($15::text[]) WITH ORDINALITY AS e(data, position) ON e.position = b.position
                WHERE e.data <> ''
                ORDER BY b.position
            ),
            -- A pending dispatch superseded here ends here: its `dispatch.superseded` event, when its app's
            -- is subscribed to ($16, by the newer row), with the fields `SupersededEvents.data` gives.
            superseded_events AS (
                INSERT INTO events (workspace_id, app_id, type, data)
                SELECT s.workspace_id, s.app_id, 'dispatch.superseded', \(SupersededEvents.data(of: "s"))
                FROM superseded s
                JOIN batch b ON b.id = s.superseded_by
                JOIN unnest($16::text[]) WITH ORDINALITY AS f(wanted, position) ON f.position = b.position
                WHERE s.status = 'superseded' AND f.wanted = 't'
                ORDER BY s.id
            )
            SELECT position, EXISTS (
                SELECT 1 FROM activity_tokens t
                WHERE t.app_id = batch.app_id AND t.activity_id = batch.activity_id
                  AND (batch.external_id = '' OR t.user_id IN (
                      SELECT u.id FROM users u
                      WHERE u.workspace_id = batch.workspace_id AND u.external_id = batch.external_id))
            ) AS has_tokens,
            ARRAY(SELECT s.id::text FROM superseded s WHERE s.superseded_by = batch.id) AS superseded,
            now() AS created_at
            FROM batch ORDER BY position
            """,
        // Re-planning this statement costs more than running it for a small batch, and its best plan is
        // the same for any batch; left to choose, PostgreSQL kept planning every run of it when the
        // connection's first batches were small.
        planning: .generic)

    /// `supersede` false leaves older dispatches alone (a setting for measuring what supersession saves).
    /// `lease`: the dispatches sent now are written leased as it says (`DispatchCommitListener`).
    /// `events`: who subscribes to `dispatch.accepted`; its events are written in the same statement.
    static func insert(
        _ dispatches: [Dispatch], supersede: Bool, lease: CommitLease? = nil, events: (any EventInterest)? = nil,
        on connection: PostgresConnection
    ) throws
        -> [CommittedDispatch<UpdateResolution>]
    {
        guard !dispatches.isEmpty else { return [] }
        let result = try connection.query(
            statement,
            [
                dispatches.map(\.id.lowercasedText),
                dispatches.map(\.workspaceID.lowercasedText),
                dispatches.map(\.appID.lowercasedText),
                dispatches.map(\.event.rawValue),
                dispatches.map(\.activityID),
                // External ids are never empty (the API refuses that), so '' can stand for none.
                dispatches.map { $0.externalID ?? "" },
                dispatches.map { String(decoding: $0.payload, as: UTF8.self) },
                dispatches.map { String($0.priority.rawValue) },
                dispatches.map { PostgresTimestamp.format($0.expiresAt) },
                dispatches.map { $0.sendAt.map(PostgresTimestamp.format) ?? "" },
                supersede,
                lease?.worker ?? "",
                lease?.session,
                (lease?.lease ?? .zero).inSeconds,
                dispatches.map { dispatch in
                    guard events?.wants(.dispatchAccepted, workspaceID: dispatch.workspaceID, appID: dispatch.appID) == true else {
                        return ""
                    }
                    return String(decoding: OutgoingEvent.accepted(dispatch).fields.serialized(), as: UTF8.self)
                },
                dispatches.map { events?.wants(.dispatchSuperseded, workspaceID: $0.workspaceID, appID: $0.appID) == true ? "t" : "f" },
            ])
        return try result.map { row in
            CommittedDispatch(
                resolution: UpdateResolution(
                    hasRegisteredTokens: try row.require("has_tokens"),
                    supersededDispatches: try row.require("superseded", as: [String].self).compactMap(UUID.init(uuidString:))),
                createdAt: try row.require("created_at"))
        }
    }
}
