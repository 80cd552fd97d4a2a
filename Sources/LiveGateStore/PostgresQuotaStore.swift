import Foundation
import LiveGateDomain
import PostgresClient

/// Quota leases in a windows table: one round trip per lease, through its lease function. The message
/// endpoints' hourly quota per workspace and `/push_token_tag`'s per-minute quota per app are the same
/// mechanism over two tables (migrations 005 and 011).
package struct PostgresQuotaStore: QuotaStore {
    /// Where one kind of quota is kept. The protocol's `workspaceID` is the quota's owner: `ownerColumn`.
    package struct Windows: Sendable {
        let table: String
        let ownerColumn: String
        let leaseFunction: String

        /// The workspaces' hourly quota for the message endpoints.
        package static let workspaceHours = Windows(
            table: "rate_limit_windows", ownerColumn: "workspace_id", leaseFunction: "livegate_lease_quota")
        /// Each app's per-minute quota of `/push_token_tag` registrations.
        package static let appMinutes = Windows(
            table: "token_tag_rate_windows", ownerColumn: "app_id", leaseFunction: "livegate_lease_token_tag_quota")
        /// `/users/track`'s own hourly limit.
        package static let usersTrackHours = Windows(
            table: "users_track_rate_windows", ownerColumn: "workspace_id", leaseFunction: "livegate_lease_users_track_quota")
    }

    let pool: PostgresConnectionPool
    let windows: Windows

    package init(pool: PostgresConnectionPool, windows: Windows = .workspaceHours) {
        self.pool = pool
        self.windows = windows
    }

    package func lease(workspaceID: UUID, window: Date, wanted: Int, limit: Int) async throws -> QuotaLease {
        let row = try await pool.query(
            "SELECT leased, window_total FROM \(windows.leaseFunction)($1, $2, $3, $4)", [workspaceID, window, wanted, limit])[0]
        return QuotaLease(leased: try row.require("leased"), windowTotal: try row.require("window_total"))
    }

    package func giveBack(workspaceID: UUID, window: Date, count: Int) async throws {
        try await pool.query(
            """
            UPDATE \(windows.table) SET granted = greatest(granted - $3, 0)
            WHERE \(windows.ownerColumn) = $1 AND window_start = $2
            """, [workspaceID, window, count])
    }
}
