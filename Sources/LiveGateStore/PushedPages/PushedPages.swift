import NIOConcurrencyHelpers
import PostgresClient

/// Keeps `activity_pushed_pages` to what device truth reads: each device's newest page. An activity's
/// pages are looked at again only once it has been pushed since the last pass, and one statement (one
/// snapshot) finds, for every token of those activities, the newest page since its token arrived, and
/// deletes the pages that are no one's newest: those whose devices newer pages or pushes recorded on
/// their rows reached, whose tokens are gone or were replaced. Several gateways may prune at once; each keeps its own mark.
package struct PushedPages: Sendable {
    let pool: PostgresConnectionPool
    /// The last page id a pass covered.
    private let mark = NIOLockedValueBox<Int64>(0)

    package init(pool: PostgresConnectionPool) {
        self.pool = pool
    }

    /// One pass; returns how many pages it deleted.
    @discardableResult
    package func prune() async throws -> Int {
        let after = mark.withLockedValue { $0 }
        let rows = try await pool.query(
            """
            WITH bound AS (SELECT max(id) AS last FROM activity_pushed_pages),
            chosen AS (
                SELECT DISTINCT app_id, activity_id FROM activity_pushed_pages
                WHERE id > $1 AND id <= (SELECT last FROM bound)
            ),
            newest AS (
                SELECT DISTINCT ON (x.token_id) p.id
                FROM chosen c
                JOIN activity_pushed_pages p ON p.app_id = c.app_id AND p.activity_id = c.activity_id
                CROSS JOIN LATERAL unnest(p.token_ids) AS x(token_id)
                JOIN activity_tokens t ON t.id = x.token_id AND p.pushed_at >= t.token_since
                    AND (t.last_pushed_at IS NULL OR p.pushed_at > t.last_pushed_at)
                ORDER BY x.token_id, p.pushed_at DESC, p.id DESC
            ),
            deleted AS (
                DELETE FROM activity_pushed_pages p USING chosen c
                WHERE p.app_id = c.app_id AND p.activity_id = c.activity_id AND p.id NOT IN (SELECT id FROM newest)
                RETURNING p.id
            )
            SELECT (SELECT count(*) FROM deleted)::int AS deleted, (SELECT last FROM bound) AS last
            """,
            [after])
        guard let row = rows.first else { return 0 }
        if let last: Int64 = try row.decode("last") {
            mark.withLockedValue { $0 = max($0, last) }
        }
        return try row.require("deleted")
    }
}
