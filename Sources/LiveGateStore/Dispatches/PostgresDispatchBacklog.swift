import LiveGateDomain
import PostgresClient

/// Reads the dispatch backlog in one statement over the unfinished dispatches only, timed by the
/// database's clock: pending ones through `dispatches_due_idx`, those being delivered (a dispatch holds
/// a lease exactly while it is) through `dispatches_leased_idx`, never a scan of the finished ones.
package struct PostgresDispatchBacklog: Sendable {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) {
        self.pool = pool
    }

    package func read() async throws -> DispatchBacklog {
        let row = try await pool.query(
            """
            SELECT count(*) FILTER (WHERE status = 'pending' AND next_attempt_at <= now())::int AS pending,
                   count(*) FILTER (WHERE status = 'delivering')::int AS delivering,
                   count(*) FILTER (WHERE status = 'pending' AND next_attempt_at > now())::int AS scheduled,
                   COALESCE(EXTRACT(EPOCH FROM now() - min(next_attempt_at) FILTER (WHERE next_attempt_at <= now())), 0)
                       ::float8 AS oldest
            FROM (
                SELECT status, next_attempt_at FROM dispatches WHERE status = 'pending'
                UNION ALL
                SELECT status, next_attempt_at FROM dispatches WHERE leased_until IS NOT NULL AND status = 'delivering'
            ) unfinished
            """)[0]
        return DispatchBacklog(
            pending: try row.require("pending"), delivering: try row.require("delivering"),
            scheduled: try row.require("scheduled"), oldestWaitingSeconds: max(0, try row.require("oldest")))
    }
}
