import Foundation
import PostgresClient

/// Each app's per-minute `/push_token_tag` quota in `token_tag_rate_windows`, leased as the message
/// endpoints' hourly quota is (`PostgresQuotaStore`). The quota's owner, `workspaceID` in the protocol,
/// is the app's row id here.
public struct PostgresTokenTagQuotaStore: QuotaStore {
    let pool: PostgresConnectionPool

    public init(pool: PostgresConnectionPool) {
        self.pool = pool
    }

    public func lease(workspaceID appID: UUID, window: Date, wanted: Int, limit: Int) async throws -> QuotaLease {
        let row = try await pool.query(
            "SELECT leased, window_total FROM livegate_lease_token_tag_quota($1, $2, $3, $4)", [appID, window, wanted, limit])[0]
        return QuotaLease(leased: try row.require("leased"), windowTotal: try row.require("window_total"))
    }

    public func giveBack(workspaceID appID: UUID, window: Date, count: Int) async throws {
        try await pool.query(
            """
            UPDATE token_tag_rate_windows SET granted = greatest(granted - $3, 0)
            WHERE app_id = $1 AND window_start = $2
            """, [appID, window, count])
    }
}
