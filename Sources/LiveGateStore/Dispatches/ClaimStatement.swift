import APNsCore
import Foundation
import LiveGateDomain
import PostgresClient
import UUIDText

/// Claims up to a limit of dispatches for a worker, in one statement: first those whose lease ran out,
/// then (when asked) those of a worker whose session is gone, then the due ones oldest first. Each
/// part reads its own partial index (migration 016), so a claim's cost follows what it takes, not how
/// many dispatches are being delivered.
///
/// A worker's session is gone when this statement can take its advisory lock (migration 010), for
/// the rest of its own transaction only: a live worker's lock cannot be taken. Never this worker's own:
/// between losing its session and taking it again it must not take back what it is still sending.
/// SKIP LOCKED: concurrent workers (in this process or another gateway) pass over each other's rows.
/// `$5` is typed `uuid[]`, so its text is read once per claim: cast from `text[]` in the statement, it
/// was read again for every row the claim looked at (48 ms for a claim of 325 beside 2,000 in flight).
enum ClaimStatement {
    static let statement = PostgresStatement(
        name: "livegate_claim_dispatches",
        sql: """
            UPDATE dispatches d
            SET status = 'delivering', leased_by = $1, leased_by_session = $4,
                leased_until = now() + make_interval(secs => $2), attempts = d.attempts + 1
            FROM (
                SELECT id FROM (
                    SELECT id FROM (
                        SELECT id FROM dispatches
                        WHERE status = 'delivering' AND leased_until < now() AND id <> ALL($5::uuid[])
                        ORDER BY leased_until LIMIT $3 FOR UPDATE SKIP LOCKED) expired
                    UNION ALL
                    SELECT id FROM (
                        SELECT id FROM dispatches
                        WHERE $6::boolean AND status = 'delivering' AND leased_until >= now() AND leased_by <> $1
                          AND leased_by_session IS NOT NULL AND id <> ALL($5::uuid[])
                          AND pg_try_advisory_xact_lock(\(PostgresWorkerSession.lockClass), leased_by_session)
                        LIMIT $3 FOR UPDATE SKIP LOCKED) orphaned
                    UNION ALL
                    SELECT id FROM (
                        SELECT id FROM dispatches
                        WHERE status = 'pending' AND next_attempt_at <= now() AND id <> ALL($5::uuid[])
                        ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED) due
                ) claimable
                LIMIT $3
            ) claimable
            WHERE d.id = claimable.id
            RETURNING d.id, d.workspace_id, d.app_id, d.event, d.activity_id, d.external_id, d.payload,
                      d.priority::int AS priority, d.expires_at, d.created_at, d.fanout_cursor, d.attempts,
                      d.send_at, d.broadcast_at IS NOT NULL AS broadcast_recorded,
                      CASE WHEN d.broadcast_status = 200 THEN d.broadcast_channel_id END AS delivered_channel,
                      d.attributes_type, d.audience, d.segment_id, d.budget_position,
                      \(PostgresDeliveryQueue.stopColumn)
            """)

    /// A start to an audience's: its type, custom audience and segment.
    static func audience(of row: PostgresRow) throws -> DispatchAudience? {
        let text: String? = try row.decode("audience")
        let segmentID: UUID? = try row.decode("segment_id")
        guard text != nil || segmentID != nil, let attributesType: String = try row.decode("attributes_type") else { return nil }
        var customAudience: JSONValue?
        if let text {
            guard let json = try? JSONValue.parse(text) else {
                throw PostgresError(code: .decodingFailed, message: "a dispatch's audience is not JSON")
            }
            customAudience = json
        }
        return DispatchAudience(attributesType: attributesType, customAudience: customAudience, segmentID: segmentID)
    }

    /// `excluding`: dispatches this worker is still winding up, never claimed again meanwhile.
    static func claim(
        worker: String, session: Int32?, limit: Int, lease: Duration, excluding: Set<UUID>, lookForDeadSessions: Bool,
        on connection: PostgresConnection
    ) throws -> [ClaimedDispatch] {
        let rows = try connection.query(
            statement,
            [worker, lease.inSeconds, limit, session, excluding.map(\.lowercasedText), lookForDeadSessions])
        return try rows.map { row in
            guard let event = LiveActivityEvent(rawValue: try row.require("event")),
                let priority = APNsPriority(rawValue: try row.require("priority"))
            else { throw PostgresError(code: .decodingFailed, message: "a dispatch has an unknown event or priority") }
            return ClaimedDispatch(
                dispatch: Dispatch(
                    id: try row.require("id"), workspaceID: try row.require("workspace_id"),
                    appID: try row.require("app_id"), event: event, activityID: try row.require("activity_id"),
                    externalID: try row.decode("external_id"),
                    payload: Array(try row.require("payload", as: String.self).utf8), priority: priority,
                    expiresAt: try row.require("expires_at"), sendAt: try row.decode("send_at"),
                    audience: try audience(of: row)),
                createdAt: try row.require("created_at"), fanoutCursor: try row.require("fanout_cursor"),
                attempts: try row.require("attempts"), broadcastRecorded: try row.require("broadcast_recorded"),
                stop: try PostgresDeliveryQueue.stop(of: row),
                deliveredBroadcastChannel: try row.decode("delivered_channel", as: String.self).map(ChannelID.init(rawValue:)),
                countedPosition: try row.decode("budget_position"))
        }
    }
}
