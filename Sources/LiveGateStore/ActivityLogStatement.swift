import Foundation
import LiveGateDomain
import PostgresClient
import UUIDText

/// Writes activity log entries of one app in one statement, keeping at most
/// `ActivityLogEntry.storedPerTypePerHour` of each type per clock hour (UTC) and counting the rest.
///
/// The hour's counter row is bumped with `ON CONFLICT DO UPDATE`, which locks it, so concurrent writers
/// (other workers, other gateways) each see the count before their own entries and the cap holds.
enum ActivityLogStatement {
    static let statement = PostgresStatement(
        name: "livegate_insert_activity_log",
        sql: """
            WITH entries AS (
                SELECT * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                                     $9::text[], $10::text[], $11::text[])
                    WITH ORDINALITY AS e(type, message, activity_id, dispatch_id, external_id, masked_token,
                                         apns_status, apns_reason, apns_id, position)
            ),
            per_type AS (
                SELECT type, count(*)::int AS added FROM entries GROUP BY type
            ),
            counted AS (
                INSERT INTO message_activity_log_hours AS h (app_id, type, hour, workspace_id, total)
                SELECT $2, type, date_trunc('hour', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', $1, added
                FROM per_type
                ON CONFLICT (app_id, type, hour) DO UPDATE SET total = h.total + EXCLUDED.total
                RETURNING h.type, h.total
            ),
            ranked AS (
                SELECT e.*, row_number() OVER (PARTITION BY e.type ORDER BY e.position) AS rank FROM entries e
            )
            INSERT INTO message_activity_log (workspace_id, app_id, type, message, activity_id, dispatch_id,
                                              external_id, masked_token, apns_status, apns_reason, apns_id)
            SELECT $1, $2, r.type, r.message, nullif(r.activity_id, ''), nullif(r.dispatch_id, '')::uuid,
                   nullif(r.external_id, ''), nullif(r.masked_token, ''), nullif(r.apns_status, '')::smallint,
                   nullif(r.apns_reason, ''), nullif(r.apns_id, '')
            FROM ranked r
            JOIN counted c ON c.type = r.type
            JOIN per_type p ON p.type = r.type
            WHERE c.total - p.added + r.rank <= $12
            ORDER BY r.position
            """)

    /// Returns how many entries were stored (the others were only counted).
    @discardableResult
    static func insert(
        _ entries: [ActivityLogEntry], workspaceID: UUID, appID: UUID, on connection: PostgresConnection
    ) throws -> Int {
        guard !entries.isEmpty else { return 0 }
        // '' stands for NULL: none of these fields is ever empty when present.
        return try connection.query(
            statement,
            [
                workspaceID, appID,
                entries.map(\.type.rawValue),
                entries.map(\.message),
                entries.map { $0.activityID ?? "" },
                entries.map { $0.dispatchID?.lowercasedText ?? "" },
                entries.map { $0.externalID ?? "" },
                entries.map { $0.maskedToken ?? "" },
                entries.map { $0.apnsStatus.map(String.init) ?? "" },
                entries.map { $0.apnsReason ?? "" },
                entries.map { $0.apnsID ?? "" },
                ActivityLogEntry.storedPerTypePerHour,
            ]
        ).affectedRowCount
    }
}
