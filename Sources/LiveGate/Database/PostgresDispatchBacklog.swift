import PostgresClient

/// Reads the dispatch backlog in one statement over the unfinished dispatches only (the partial index
/// `dispatches_unfinished_activity_idx` holds just those: `completed_at IS NULL`), timed by the
/// database's clock.
public struct PostgresDispatchBacklog: Sendable {
    let pool: PostgresConnectionPool

    public init(pool: PostgresConnectionPool) {
        self.pool = pool
    }

    public func read() async throws -> DispatchBacklog {
        let row = try await pool.query(
            """
            SELECT count(*) FILTER (WHERE status = 'pending' AND next_attempt_at <= now())::int AS pending,
                   count(*) FILTER (WHERE status = 'delivering')::int AS delivering,
                   count(*) FILTER (WHERE status = 'pending' AND next_attempt_at > now())::int AS scheduled,
                   COALESCE(EXTRACT(EPOCH FROM now() - min(next_attempt_at) FILTER (WHERE next_attempt_at <= now())), 0)
                       ::float8 AS oldest
            FROM dispatches
            WHERE completed_at IS NULL
            """)[0]
        return DispatchBacklog(
            pending: try row.require("pending"), delivering: try row.require("delivering"),
            scheduled: try row.require("scheduled"), oldestWaitingSeconds: max(0, try row.require("oldest")))
    }
}
