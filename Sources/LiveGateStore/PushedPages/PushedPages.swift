import Foundation
import LiveGateDomain
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

    /// One pass over the activities pushed since the last, once they have been quiet for `quiet` (a
    /// fan-out still writing pages would be looked at again and again); returns how many pages it
    /// deleted.
    @discardableResult
    package func prune(quiet: Duration = .seconds(5)) async throws -> Int {
        let after = mark.withLockedValue { $0 }
        let row = try await Self.sorting(on: pool) { connection in
            try connection.query(
                """
                WITH bound AS (SELECT max(id) AS last FROM activity_pushed_pages),
                pushed AS (
                    SELECT app_id, activity_id, min(id) AS first_new FROM activity_pushed_pages
                    WHERE id > $1 AND id <= (SELECT last FROM bound) GROUP BY app_id, activity_id
                ),
                activities AS (
                    SELECT p.app_id, p.activity_id, n.first_new, count(DISTINCT p.dispatch_id) AS dispatches,
                           max(p.pushed_at) < now() - make_interval(secs => $2) AS quiet
                    FROM activity_pushed_pages p JOIN pushed n ON n.app_id = p.app_id AND n.activity_id = p.activity_id
                    GROUP BY p.app_id, p.activity_id, n.first_new
                ),
                chosen AS (SELECT app_id, activity_id FROM activities WHERE quiet AND dispatches > 1),
                \(Self.deletion(checkingTokens: false))
                SELECT (SELECT count(*) FROM deleted)::int AS deleted,
                       coalesce((SELECT min(first_new) - 1 FROM activities WHERE NOT quiet), (SELECT last FROM bound)) AS mark
                """,
                [after, quiet.inSeconds]
            ).first
        }
        guard let row else { return 0 }
        // An activity still being pushed is looked at again from its first page after the old mark.
        if let covered: Int64 = try row.decode("mark") {
            mark.withLockedValue { $0 = max($0, covered) }
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
            let cursor = after
            let rows = try await Self.sorting(on: pool) { connection in
                try connection.query(
                    """
                    WITH chosen AS (
                        SELECT DISTINCT app_id, activity_id FROM activity_pushed_pages
                        WHERE $1::uuid IS NULL OR (app_id, activity_id) > ($1::uuid, $2::text)
                        ORDER BY app_id, activity_id LIMIT $3
                    ),
                    \(Self.deletion(checkingTokens: true))
                    SELECT (SELECT count(*) FROM deleted)::int AS deleted, app_id, activity_id
                    FROM chosen ORDER BY app_id DESC, activity_id DESC LIMIT 1
                    """,
                    [cursor?.app, cursor?.activity ?? "", activities])
            }
            guard let row = rows.first else { return deleted }
            deleted += try row.require("deleted")
            after = (try row.require("app_id"), try row.require("activity_id"))
        }
    }

    /// Runs `body` in a transaction with room to sort a few hundred thousand ids in memory: PostgreSQL's
    /// default spills them to disk.
    private static func sorting<Result: Sendable>(
        on pool: PostgresConnectionPool, _ body: @escaping @Sendable (PostgresConnection) throws -> Result
    ) async throws -> Result {
        try await pool.transaction { connection in
            try connection.query("SET LOCAL work_mem = '64MB'")
            return try body(connection)
        }
    }

    /// The `newest` and `deleted` steps: each device's newest page among the chosen activities' (with
    /// `checkingTokens`, only for tokens that exist, pushed since their token arrived and after their
    /// row's own record), and the deletion of the chosen activities' other pages. Pages another pass is
    /// deleting are skipped, not waited for: two passes never deadlock over them.
    private static func deletion(checkingTokens: Bool) -> String {
        let tokens =
            checkingTokens
            ? """
            JOIN activity_tokens t ON t.id = x.token_id AND p.pushed_at >= t.token_since
                AND (t.last_pushed_at IS NULL OR p.pushed_at > t.last_pushed_at)
            """ : ""
        return """
            newest AS (
                SELECT DISTINCT ON (x.token_id) p.id
                FROM chosen c
                JOIN activity_pushed_pages p ON p.app_id = c.app_id AND p.activity_id = c.activity_id
                CROSS JOIN LATERAL unnest(p.token_ids) AS x(token_id)
                \(tokens)
                ORDER BY x.token_id, p.pushed_at DESC, p.id DESC
            ),
            doomed AS (
                SELECT p.id FROM activity_pushed_pages p JOIN chosen c ON p.app_id = c.app_id AND p.activity_id = c.activity_id
                WHERE p.id NOT IN (SELECT id FROM newest)
                FOR UPDATE OF p SKIP LOCKED
            ),
            deleted AS (
                DELETE FROM activity_pushed_pages p USING doomed d WHERE p.id = d.id
                RETURNING p.id
            )
            """
    }
}
