import Foundation
import LiveGateDomain
import PostgresClient
import UUIDText

/// Counts APNs's 429 `TooManyRequests` answers in each activity's clock hour (UTC) of
/// `activity_priority_hours`, in the transaction that records the pages they came in, and tells which
/// activities had none before in the hour: their entry is logged, once per activity and hour.
///
/// One statement for every activity of a batch. Rows are written in (app, activity) order, as the
/// priority count locks them, so writers of overlapping batches wait for each other instead of
/// deadlocking.
enum ThrottledHoursStatement {
    static let statement = PostgresStatement(
        name: "livegate_count_throttled",
        sql: """
            WITH added AS (
                SELECT t.app_id, t.activity_id, sum(t.n)::int AS n
                FROM unnest($1::text[]::uuid[], $2::text[], $3::text[]::int[]) AS t(app_id, activity_id, n)
                GROUP BY t.app_id, t.activity_id
            ),
            counted AS (
                INSERT INTO activity_priority_hours AS h (app_id, activity_id, hour, throttled)
                SELECT a.app_id, a.activity_id, date_trunc('hour', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', a.n
                FROM added a ORDER BY a.app_id, a.activity_id
                ON CONFLICT (app_id, activity_id, hour) DO UPDATE SET throttled = h.throttled + EXCLUDED.throttled
                RETURNING h.app_id, h.activity_id, h.throttled
            )
            SELECT c.app_id, c.activity_id FROM counted c
            JOIN added a ON a.app_id = c.app_id AND a.activity_id = c.activity_id
            WHERE c.throttled = a.n
            """)

    /// Counts each page's 429s (`FanoutProgress.throttled`) and returns, by app, the entries to log:
    /// each activity's first (`throttledEntry`, of the first page given for it) when the hour had no
    /// 429 for it before. Nothing is asked when no page was throttled.
    static func count(
        _ pages: [(dispatch: Dispatch, progress: FanoutProgress)], on connection: PostgresConnection
    ) throws -> [UUID: [ActivityLogEntry]] {
        let throttled = pages.filter { $0.progress.throttled > 0 }
        guard !throttled.isEmpty else { return [:] }
        let rows = try connection.query(
            statement,
            [
                throttled.map(\.dispatch.appID.lowercasedText), throttled.map(\.dispatch.activityID),
                throttled.map { String($0.progress.throttled) },
            ])
        var first: Set<ThrottledActivity> = []
        for row in rows {
            first.insert(ThrottledActivity(appID: try row.require("app_id"), activityID: try row.require("activity_id")))
        }
        var entries: [UUID: [ActivityLogEntry]] = [:]
        for page in throttled {
            let activity = ThrottledActivity(appID: page.dispatch.appID, activityID: page.dispatch.activityID)
            guard let entry = page.progress.throttledEntry, first.remove(activity) != nil else { continue }
            entries[activity.appID, default: []].append(entry)
        }
        return entries
    }

    private struct ThrottledActivity: Hashable {
        let appID: UUID
        let activityID: String
    }
}
