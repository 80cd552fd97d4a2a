import Foundation
import PostgresClient
import UUIDText

/// Newest state first for starts to an audience: a start to an audience of an activity, taking effect,
/// supersedes the older unfinished starts to an audience of the same app and activity. One still
/// waiting ends as `superseded` at once; one being delivered gets `superseded_by` and stops at its next
/// page, so no device is started with the older content once the newer one is on its way. (A start
/// to named users neither supersedes nor is superseded: it is a few devices, sent at once.)
enum AudienceStartSupersession {
    static let onClaim = PostgresStatement(
        name: "livegate_supersede_audience_starts",
        sql: """
            UPDATE dispatches o
                SET superseded_by = s.newer_id,
                    status = CASE WHEN o.status = 'pending' THEN 'superseded' ELSE o.status END,
                    completed_at = CASE WHEN o.status = 'pending' THEN now() ELSE o.completed_at END
                FROM (
                    SELECT DISTINCT ON (older.id) older.id, n.id AS newer_id
                    FROM dispatches n
                    CROSS JOIN LATERAL (
                        SELECT * FROM dispatches older
                        WHERE older.app_id = n.app_id AND older.activity_id = n.activity_id
                          AND older.completed_at IS NULL AND older.superseded_by IS NULL
                          AND older.cancel_requested_at IS NULL AND older.id <> n.id AND older.event = 'start'
                          AND (older.audience IS NOT NULL OR older.segment_id IS NOT NULL)
                          AND (coalesce(older.send_at, older.created_at), older.sequence)
                              < (coalesce(n.send_at, n.created_at), n.sequence)
                        OFFSET 0) older
                    WHERE n.id = ANY($1::uuid[])
                    ORDER BY older.id, coalesce(n.send_at, n.created_at) DESC, n.sequence DESC
                ) s
                WHERE o.id = s.id AND o.superseded_by IS NULL AND o.status IN ('pending', 'delivering')
                RETURNING o.id, o.superseded_by
            """)

    /// Runs `onClaim` for the claimed starts to an audience; returns each dispatch superseded with the one that did.
    static func supersede(byClaimed claimed: [UUID], on connection: PostgresConnection) throws -> [UUID: UUID] {
        guard !claimed.isEmpty else { return [:] }
        var superseded: [UUID: UUID] = [:]
        for row in try connection.query(onClaim, [claimed.map(\.lowercasedText)]) {
            superseded[try row.require("id")] = try row.require("superseded_by")
        }
        return superseded
    }
}
