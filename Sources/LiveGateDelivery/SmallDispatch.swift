import APNsClient
import APNsCore
import Foundation
import LiveGateDomain

/// A claimed dispatch delivered as a small one, its only page in a batch: all of its devices (a few), known at the claim,
/// and where its app's pushes go (nil for one stopped before it was claimed, which sends nothing).
struct SmallDispatch: Sendable {
    /// Devices a dispatch may have and still go as a small one. Beyond it, a fan-out's few
    /// round trips are a small share of the pushes, and its pages keep memory flat however large the
    /// audience; within it, one dispatch's round trips would cost more than its pushes.
    static let maximumDevices = 32

    let claimed: ClaimedDispatch
    let destination: APNsDestination?
    let targets: [FanoutTarget]
    /// What its delivery decides at each step, as for every dispatch.
    var life: DispatchLife

    init(claimed: ClaimedDispatch, destination: APNsDestination?, targets: [FanoutTarget], settings: DeliverySettings) {
        self.claimed = claimed
        self.destination = destination
        self.targets = targets
        self.life = DispatchLife(claimed, retry: settings.handBackRetry, supersedes: settings.supersedes)
    }

    var id: UUID { claimed.dispatch.id }
}
