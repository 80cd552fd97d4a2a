import Foundation

/// Where gateways sharing a database lease blocks of each workspace's hourly quota.
package protocol QuotaStore: Sendable {
    /// Hands out up to `wanted` requests of the window, never more than `limit` in all across gateways.
    func lease(workspaceID: UUID, window: Date, wanted: Int, limit: Int) async throws -> QuotaLease
    /// Returns requests leased but not spent (a gateway stopping), so other gateways may use them.
    func giveBack(workspaceID: UUID, window: Date, count: Int) async throws
}

package struct QuotaLease: Sendable, Equatable {
    /// Handed to the caller now (0 when the window is spent).
    package let leased: Int
    /// Handed out for the window in all, to every gateway, this lease included.
    package let windowTotal: Int

    package init(leased: Int, windowTotal: Int) {
        self.leased = leased
        self.windowTotal = windowTotal
    }
}
