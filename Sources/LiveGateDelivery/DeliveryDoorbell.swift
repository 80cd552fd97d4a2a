import LiveGateDomain
import NIOConcurrencyHelpers

/// Wakes the delivery engine. A ring says something may be due that only a claim finds: the API
/// committed a dispatch pending, a poll interval passed, a claim was full. A wake only says there is
/// something to do without one: a commit handed dispatches over (`DeliveryHandoff`), or a delivery
/// ended and made room for a ring that found none. Rings and wakes that come while the engine is busy
/// collapse into one.
package final class DeliveryDoorbell: Sendable {
    let rings: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private let claimWanted = NIOLockedValueBox(true)

    package init() {
        (rings, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    package func ring() {
        claimWanted.withLockedValue { $0 = true }
        continuation.yield()
    }

    func wake() {
        continuation.yield()
    }

    /// Whether a ring came since the last claim; the engine takes it when it claims.
    func takeClaimRequest() -> Bool {
        claimWanted.withLockedValue { wanted in
            defer { wanted = false }
            return wanted
        }
    }

    /// No more rings: the engine's wait ends.
    func close() {
        continuation.finish()
    }
}
