import Foundation
import LiveGateDomain

/// How this gateway's delivery engine hears of the dispatch store's commits: dispatches written leased to
/// it are handed over (`DeliveryHandoff`), a commit that wrote anything pending rings for a claim
/// (`DeliveryDoorbell`), and deliveries of what a commit superseded or a `DELETE` cancelled stop at once
/// (`DispatchStopSignals`).
package struct DeliveryCommits: DispatchCommitListener {
    package let doorbell: DeliveryDoorbell
    package let stops: DispatchStopSignals
    /// Nil: the engine claims everything, and no commit is written leased to it.
    package let handoff: DeliveryHandoff?

    package init(doorbell: DeliveryDoorbell, stops: DispatchStopSignals, handoff: DeliveryHandoff?) {
        self.doorbell = doorbell
        self.stops = stops
        self.handoff = handoff
    }

    package func lease(for count: Int) -> CommitLease? {
        handoff?.grant(count)
    }

    package func commitFailed(under lease: CommitLease) {
        handoff?.giveBack(lease)
    }

    package func committed(leased: [ClaimedDispatch], under lease: CommitLease?, wrotePending: Bool) {
        if let handoff, let lease { handoff.hand(leased, under: lease) }
        if wrotePending { doorbell.ring() }
    }

    package func stopped(_ ids: [UUID], because reason: DispatchStop) {
        for id in ids { stops.stop(id, because: reason) }
    }
}
