import APNsClient
import APNsCore
import Foundation

/// `apns-id`s for one page of pushes: random version-4 UUIDs from a `SplitMix64` seeded once, instead
/// of a system call for every push. They need to be unique, not secret.
struct APNsIDGenerator {
    private var words = SplitMix64()

    mutating func nextID() -> UUID {
        let (high, low) = words.nextUUIDv4()
        return UUID(high: high, low: low)
    }
}

extension Dispatch {
    /// The dispatch's push to each of `targets`, each with its own `apns-id` from `ids`.
    func pushes(to targets: [FanoutTarget], ids: inout APNsIDGenerator) -> [LiveActivityPush] {
        targets.map { target in
            LiveActivityPush(deviceToken: target.token, payload: payload, priority: priority, expiresAt: expiresAt, apnsID: ids.nextID())
        }
    }
}
