import LiveGateDomain
import NIOConcurrencyHelpers

/// Whether a delivery may still start sending its dispatch's pushes (a page, a broadcast).
///
/// While the worker's session has held since the claim, yes, at no cost. After the session was lost (a
/// database restart, or the session ended), another worker may have taken the dispatch over: the delivery
/// waits until the session is held again, then proves the lease still names this worker before going on.
/// Without a session (an engine made without one) the lease alone decides.
struct DispatchOwnership: Sendable {
    let liveness: DeliveryLiveness?
    /// The generation of the session under which ownership was last known.
    private let proven: NIOLockedValueBox<Int>

    /// `generation`: of the session the claim was made under; nil for a claim made without one, which
    /// only its lease guards.
    init(liveness: DeliveryLiveness?, claimedUnder generation: Int?) {
        self.liveness = generation == nil ? nil : liveness
        self.proven = NIOLockedValueBox(generation ?? 0)
    }

    /// True: go on. False: stopping while the session was away, or `prove` said the lease is lost.
    func confirm(isStopping: () -> Bool, prove: () async throws -> Bool) async throws -> Bool {
        guard let liveness else { return true }
        guard let held = await liveness.waitUntilHeld(isStopping: isStopping) else { return false }
        if held.generation == proven.withLockedValue({ $0 }) { return true }
        guard try await prove() else { return false }
        proven.withLockedValue { $0 = held.generation }
        return true
    }
}
