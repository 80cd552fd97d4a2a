import Foundation
import LiveGateDomain
import Synchronization

/// The dispatches this process is delivering, each with a flag its sending checks before every batch.
///
/// A stop reaches a delivery three ways: from this gateway's own API at once (it committed the newer
/// dispatch, or took the `DELETE`), from the page record (`RecordedProgress`), and from the engine's
/// check of the database every second (another gateway's API). None costs a round trip per push.
package final class DispatchStopSignals: Sendable {
    private let flags = Mutex<[UUID: DispatchStopFlag]>([:])

    package init() {}

    /// Starts watching a dispatch this process delivers; its flag is set by `stop`. One watched since
    /// its commit (`DeliveryHandoff`) keeps its flag, and whatever was raised on it.
    func watch(_ id: UUID) -> DispatchStopFlag {
        flags.withLock { flags in
            if let flag = flags[id] { return flag }
            let flag = DispatchStopFlag()
            flags[id] = flag
            return flag
        }
    }

    func unwatch(_ id: UUID) {
        _ = flags.withLock { $0.removeValue(forKey: id) }
    }

    /// The dispatches being delivered here, for the engine's periodic check.
    package var watched: [UUID] { flags.withLock { Array($0.keys) } }

    /// Stops the delivery of `id`, if this process has one under way.
    package func stop(_ id: UUID, because reason: DispatchStop) {
        flags.withLock { $0[id] }?.raise(reason)
    }
}

/// Set once; read for every push of one delivery, as its batch gets its turn.
final class DispatchStopFlag: Sendable {
    private let reason = Mutex<DispatchStop?>(nil)
    /// Whether `reason` is set: read for every push, by the threads sending a page's batches side by
    /// side, and only read (a lock is a write each of them would contend for) until the flag is raised.
    private let isRaised = Atomic<Bool>(false)

    init() {}

    /// The first reason wins: a dispatch cancelled and then superseded stays cancelled.
    func raise(_ stop: DispatchStop) {
        reason.withLock { if $0 == nil { $0 = stop } }
        isRaised.store(true, ordering: .releasing)
    }

    var raised: DispatchStop? {
        guard isRaised.load(ordering: .acquiring) else { return nil }
        return reason.withLock { $0 }
    }
}
