import Foundation
import LiveGateDomain
import Synchronization

/// The dispatches whose pushes this process has out now, so that a newer dispatch waits only for an
/// older superseded one that is really sending: not for one whose pushes were all answered, nor for one
/// still waiting to send, which is stopped instead (it would send the older state after the newer).
///
/// Both steps take one lock: a delivery marks its dispatches as sending only if they are not stopped,
/// and a newer dispatch stops an older one only if it is not sending, so the two never cross.
package final class DispatchesSending: Sendable {
    private let sending = Mutex<[UUID: Int]>([:])

    package init() {}

    /// Of `ids`, those whose flag is not raised, now marked as sending (each until `end`).
    func begin(_ ids: [UUID], flag: (UUID) -> DispatchStopFlag?) -> Set<UUID> {
        var going: Set<UUID> = []
        sending.withLock { sending in
            for id in ids where flag(id)?.raised == nil {
                sending[id, default: 0] += 1
                going.insert(id)
            }
        }
        return going
    }

    func end(_ ids: [UUID]) {
        sending.withLock { sending in
            for id in ids {
                if let count = sending[id], count > 1 { sending[id] = count - 1 } else { sending[id] = nil }
            }
        }
    }

    func isSending(_ id: UUID) -> Bool {
        sending.withLock { $0[id] != nil }
    }

    /// True when `id` is sending now (the newer dispatch must wait for it); otherwise it is stopped as
    /// superseded through `stops`, before it can begin.
    func stopUnlessSending(_ id: UUID, stops: DispatchStopSignals) -> Bool {
        sending.withLock { sending in
            if sending[id] != nil { return true }
            stops.stop(id, because: .superseded)
            return false
        }
    }
}
