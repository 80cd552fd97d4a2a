import Foundation
import PostgresClient

/// Quota leases in `rate_limit_windows`: one round trip per lease, through `livegate_lease_quota`.
public struct PostgresQuotaStore: QuotaStore {
    let pool: PostgresConnectionPool

    public init(pool: PostgresConnectionPool) {
        self.pool = pool
    }

    public func lease(workspaceID: UUID, window: Date, wanted: Int, limit: Int) async throws -> QuotaLease {
        let row = try await pool.query(
            "SELECT leased, window_total FROM livegate_lease_quota($1, $2, $3, $4)", [workspaceID, window, wanted, limit])[0]
        return QuotaLease(leased: try row.require("leased"), windowTotal: try row.require("window_total"))
    }

    public func giveBack(workspaceID: UUID, window: Date, count: Int) async throws {
        try await pool.query(
            """
            UPDATE rate_limit_windows SET granted = greatest(granted - $3, 0)
            WHERE workspace_id = $1 AND window_start = $2
            """, [workspaceID, window, count])
    }
}
