import Foundation
import LiveGateDomain
import PostgresClient

/// A fan-out page's accepted pushes as one row of token ids (`activity_pushed_pages`), and how a
/// device's last push is read back from those rows beside its token row's own record.
enum PushedPageStatements {
    /// Fewer accepted pushes than this are recorded on their token rows: a page row costs about as much as
    /// a few row rewrites, and pruning it more.
    static let smallestPage = 32

    /// Writes the answers APNs accepted as one page row, when they are at least `smallestPage`; returns
    /// the answers left to record on their token rows. One insert replaces a thousand row rewrites.
    static func recordAccepted(
        _ answers: [DeviceAnswer], of dispatch: Dispatch, on connection: PostgresConnection
    ) throws -> [DeviceAnswer] {
        var accepted: [Int64] = []
        var others: [DeviceAnswer] = []
        accepted.reserveCapacity(answers.count)
        for answer in answers {
            if answer.status == 200, answer.dispatchID == dispatch.id {
                accepted.append(answer.cursor)
            } else {
                others.append(answer)
            }
        }
        guard accepted.count >= smallestPage, let first = accepted.min(), let last = accepted.max() else { return answers }
        try connection.query(
            """
            INSERT INTO activity_pushed_pages (app_id, activity_id, dispatch_id, first_id, last_id, token_ids)
            VALUES ($1, $2, $3, $4, $5, $6::text[]::bigint[])
            """,
            [dispatch.appID, dispatch.activityID, dispatch.id, first, last, accepted.map { String($0) }])
        return others
    }

    /// The newest page that reached token row `t` since its token arrived, as a lateral join named
    /// `pushed` (`dispatch_id`, `pushed_at`, and `newer`: later than the row's own record);
    /// `app` and `activity` are the activity's parameters.
    static func newestPage(app: String, activity: String) -> String {
        """
        LEFT JOIN LATERAL (
            SELECT pp.dispatch_id, pp.pushed_at, (t.last_pushed_at IS NULL OR pp.pushed_at > t.last_pushed_at) AS newer
            FROM activity_pushed_pages pp
            WHERE pp.app_id = \(app) AND pp.activity_id = \(activity) AND t.id BETWEEN pp.first_id AND pp.last_id
              AND pp.pushed_at >= t.token_since AND t.id = ANY(pp.token_ids)
            ORDER BY pp.pushed_at DESC, pp.id DESC LIMIT 1
        ) pushed ON true
        """
    }

    /// The device's last push, whichever is newer: its newest page (accepted) or its row's own record.
    /// No page: `pushed.newer` is null, and the row's record stands.
    static let lastPushColumns = """
        CASE WHEN pushed.newer THEN pushed.dispatch_id ELSE t.last_dispatch_id END AS last_dispatch_id,
        CASE WHEN pushed.newer THEN 200 ELSE t.last_apns_status::int END AS last_apns_status,
        greatest(pushed.pushed_at, t.last_pushed_at) AS last_pushed_at
        """
}
