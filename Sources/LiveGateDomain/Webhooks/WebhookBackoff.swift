/// How long a failing endpoint waits before its next batch: `base` doubling with each failure in a
/// row, at most `cap`, with up to a fifth taken off at random so that endpoints that failed together
/// (a receiver's outage) do not all come back at the same moment.
package struct WebhookBackoff: Sendable, Equatable {
    package var base: Duration
    package var cap: Duration

    package init(base: Duration = .seconds(1), cap: Duration = .seconds(300)) {
        self.base = base
        self.cap = cap
    }

    /// The wait after the `failures`-th failure in a row (1 for the first); `jitter` in 0...1.
    package func delay(afterFailures failures: Int, jitter: Double = Double.random(in: 0...1)) -> Duration {
        let doublings = min(max(failures - 1, 0), 30)
        let full = min(base * (1 << doublings), cap)
        return full - full * (0.2 * min(max(jitter, 0), 1))
    }
}
