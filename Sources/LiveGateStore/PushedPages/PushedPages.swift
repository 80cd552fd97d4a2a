import Foundation
import NIOConcurrencyHelpers
import PostgresClient

/// Keeps `activity_pushed_pages` to what device truth reads: each device's newest page.
///
/// `prune` runs often and cheaply: it looks only at activities pushed since its last pass whose pages
/// span more than one dispatch, and deletes the pages whose every device a newer page reached. Pages
/// that only tokens since replaced, retired or answered otherwise still need are left to `pruneFully`,
/// which housekeeping runs: it checks each page's devices against their token rows. Each runs as one
/// statement (one snapshot), so a page being written is never judged half-seen; several gateways may
/// prune at once.
package struct PushedPages: Sendable {
    let pool: PostgresConnectionPool
    /// The last page id a `prune` pass covered.
    private let mark = NIOLockedValueBox<Int64>(0)

    package init(pool: PostgresConnectionPool) {
        self.pool = pool
    }

    /// One pass over the activities pushed since the last; returns how many pages it deleted.
    @discardableResult
    package func prune() async throws -> Int {
        let after = mark.withLockedValue { $0 }
        let rows = try await pool.query(
            """
            WITH bound AS (SELECT max(id) AS last FROM activity_pushed_pages),
            pushed AS (
                SELECT DISTINCT app_id, activity_id FROM activity_pushed_pages
                WHERE id > $1 AND id <= (SELECT last FROM bound)
            ),
            chosen AS (
                SELECT p.app_id, p.activity_id FROM activity_pushed_pages p JOIN pushed USING (app_id, activity_id)
                GROUP BY p.app_id, p.activity_id HAVING count(DISTINCT p.dispatch_id) > 1
            ),
            \(Self.deletion(newest: """
                SELECT DISTINCT ON (x.token_id) p.id
                FROM chosen c
                JOIN activity_pushed_pages p ON p.app_id = c.app_id AND p.activity_id = c.activity_id
                CROSS JOIN LATERAL unnest(p.token_ids) AS x(token_id)
                ORDER BY x.token_id, p.pushed_at DESC, p.id DESC
                """))
            SELECT (SELECT count(*) FROM deleted)::int AS deleted, (SELECT last FROM bound) AS last
            """,
            [after])
        guard let row = rows.first else { return 0 }
        if let last: Int64 = try row.decode("last") {
            mark.withLockedValue { $0 = max($0, last) }
        }
        return try row.require("deleted")
    }

    /// Every activity's pages, `activities` at a time, checked against their tokens: a page is kept only
    /// while it is the newest since its token arrived, and newer than its row's own record, for a token
    /// that still exists. Returns how many pages it deleted.
    package func pruneFully(activities: Int = 100) async throws -> Int {
        var deleted = 0
        var after: (app: UUID, activity: String)? = nil
        while true {
            let rows = try await pool.query(
                """
                WITH chosen AS (
                    SELECT DISTINCT app_id, activity_id FROM activity_pushed_pages
                    WHERE $1::uuid IS NULL OR (app_id, activity_id) > ($1::uuid, $2::text)
                    ORDER BY app_id, activity_id LIMIT $3
                ),
                \(Self.deletion(newest: """
                    SELECT DISTINCT ON (x.token_id) p.id
                    FROM chosen c
                    JOIN activity_pushed_pages p ON p.app_id = c.app_id AND p.activity_id = c.activity_id
                    CROSS JOIN LATERAL unnest(p.token_ids) AS x(token_id)
                    JOIN activity_tokens t ON t.id = x.token_id AND p.pushed_at >= t.token_since
                        AND (t.last_pushed_at IS NULL OR p.pushed_at > t.last_pushed_at)
                    ORDER BY x.token_id, p.pushed_at DESC, p.id DESC
                    """))
                SELECT (SELECT count(*) FROM deleted)::int AS deleted, app_id, activity_id
                FROM chosen ORDER BY app_id DESC, activity_id DESC LIMIT 1
                """,
                [after?.app, after?.activity ?? "", activities])
            guard let row = rows.first else { return deleted }
            deleted += try row.require("deleted")
            after = (try row.require("app_id"), try row.require("activity_id"))
        }
    }

    /// The `deleted` step: the chosen activities' pages that are not among `newest`.
    private static func deletion(newest: String) -> String {
        """
        newest AS (
        \(newest)
        ),
        deleted AS (
            DELETE FROM activity_pushed_pages p USING chosen c
            WHERE p.app_id = c.app_id AND p.activity_id = c.activity_id AND p.id NOT IN (SELECT id FROM newest)
            RETURNING p.id
        )
        """
    }
}
