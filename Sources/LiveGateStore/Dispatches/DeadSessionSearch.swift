import LiveGateDomain
import NIOConcurrencyHelpers

/// Paces the part of a claim that looks for the dispatches of workers whose session ended: it reads
/// every dispatch being delivered, so it runs about once per `interval` (and on a queue's first claim),
/// not on each of the hundreds of claims a second a busy gateway makes. A crashed gateway's work is
/// then taken over within about `interval` plus a claim's poll.
final class DeadSessionSearch: Sendable {
    let interval: Duration
    private let last = NIOLockedValueBox<ContinuousClock.Instant?>(nil)

    init(interval: Duration) {
        self.interval = interval
    }

    /// Whether this claim should look; if so, the next look is due `interval` from now.
    func isDue(now: ContinuousClock.Instant = .now) -> Bool {
        last.withLockedValue { last in
            if let previous = last, now - previous < interval { return false }
            last = now
            return true
        }
    }
}
