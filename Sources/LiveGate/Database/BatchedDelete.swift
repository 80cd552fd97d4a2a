import PostgresClient

/// Deletes rows in bounded batches, so no single statement holds locks for long, until a batch comes
/// back short. Idempotent: several gateways may run it at once.
enum BatchedDelete {
    /// `table` and `condition` are fixed strings of the caller, never input; `condition` may use `$1`,
    /// which is `seconds`.
    static func run(
        _ pool: PostgresConnectionPool, from table: String, where condition: String, seconds: Double, batchSize: Int
    ) async throws -> Int {
        var total = 0
        while true {
            let deleted = try await pool.query(
                "DELETE FROM \(table) WHERE ctid IN (SELECT ctid FROM \(table) WHERE \(condition) LIMIT $2)",
                [seconds, batchSize]
            ).affectedRowCount
            total += deleted
            if deleted < batchSize { return total }
        }
    }
}
