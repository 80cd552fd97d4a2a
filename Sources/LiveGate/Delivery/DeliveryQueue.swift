import Foundation

/// The committed dispatches, as delivery workers see them: claimed under a lease, progressed, finished.
/// Every call after `claim` names the worker, and fails (returns false) once the lease was lost to
/// another worker, so two workers never both believe they own a dispatch.
public protocol DeliveryQueue: Sendable {
    /// Up to `limit` dispatches due now: pending ones, and those whose lease ran out (a crashed worker's).
    func claim(worker: String, limit: Int, lease: Duration) async throws -> [ClaimedDispatch]
    /// Records a page of fan-out and extends the lease.
    func recordProgress(_ id: UUID, worker: String, progress: FanoutProgress, lease: Duration) async throws -> Bool
    /// The fan-out is over: the dispatch is done and no longer claimable.
    func complete(_ id: UUID, worker: String) async throws -> Bool
    /// Gives the dispatch back to be claimed again at `retryAt` (for example after losing the database).
    func release(_ id: UUID, worker: String, retryAt: Date) async throws -> Bool
}
