import Foundation
import LiveGateDomain
import Logging

extension DeliveryStage {
    /// Renews the leases of dispatches under way a third of the way through each lease, in one statement
    /// for all of them, until cancelled. `lost` hears of those another worker took meanwhile, which are
    /// renewed no more; it returns once none is left.
    func keepLeases(_ ids: [UUID], lost: @Sendable (Set<UUID>) -> Void = { _ in }) async {
        var held = Set(ids)
        while !held.isEmpty {
            do {
                try await Task.sleep(for: settings.lease / 3)
                let kept = try await queue.extendLeases(Array(held), worker: worker, lease: settings.lease)
                if kept.count < held.count {
                    lost(held.subtracting(kept))
                    held = kept
                }
            } catch is CancellationError {
                return
            } catch {
                logger.warning("could not renew delivery leases", metadata: ["dispatches": "\(held.count)", "error": "\(error)"])
            }
        }
    }
}
