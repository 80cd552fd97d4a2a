import LiveGateDomain
import PostgresClient

/// Keeps PostgreSQL's row counts for the tables delivery reads current while they grow fast. The hot
/// statements are prepared, and a prepared statement keeps the plan it was given while the table was
/// small (on a new install, the first seconds of traffic): sequential scans, right for a hundred rows
/// and ruinous for a hundred thousand. Autovacuum refreshes the counts (which drops such plans) only at
/// its next pass, up to a minute later; meanwhile a burst of small dispatches grows the table by
/// thousands of rows a second and one claim ran for minutes. `refresh` analyzes a table whose live rows
/// have outgrown the planner's count, cheaply enough to call every second.
package struct PlannerStatistics: Sendable {
    /// The tables whose size the delivery path's plans depend on.
    package static let tables = ["dispatches", "dispatch_targets", "activity_tokens"]

    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) {
        self.pool = pool
    }

    /// Analyzes each table of `tables` with more than twice (plus 1,000) the live rows the planner
    /// counts; returns the ones it analyzed.
    @discardableResult
    package func refresh() async throws -> [String] {
        // ANALYZE of a large table takes longer than a request's statement; it runs in the background.
        try await pool.withConnection(timeout: .limit(.seconds(300))) { connection in
            let outgrown = try connection.query(
                """
                SELECT s.relname AS name
                FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
                WHERE s.schemaname = current_schema() AND s.relname = ANY($1::text[])
                  AND s.n_live_tup > 2 * greatest(c.reltuples, 0) + 1000
                ORDER BY s.relname
                """,
                [Self.tables]
            ).map { try $0.require("name", as: String.self) }
            // The names come from `tables`, never from a request.
            for table in outgrown where Self.tables.contains(table) {
                _ = try connection.query("ANALYZE \(table)")
            }
            return outgrown
        }
    }
}
