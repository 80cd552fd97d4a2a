/// Exponential backoff with jitter: attempt n (from 1) waits between half and all of
/// `baseDelay × 2^(n-1)`, capped at `maximumDelay`, so retries of many pushes spread out instead of
/// arriving at APNs together.
package struct RetryPolicy: Sendable, Equatable {
    /// Tries in all, the first included.
    package var maximumAttempts: Int
    package var baseDelay: Duration
    package var maximumDelay: Duration

    package init(maximumAttempts: Int, baseDelay: Duration, maximumDelay: Duration) {
        self.maximumAttempts = maximumAttempts
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
    }

    /// The wait after the `attempt`-th try failed.
    package func delay(afterAttempt attempt: Int) -> Duration {
        var generator = SystemRandomNumberGenerator()
        return delay(afterAttempt: attempt, using: &generator)
    }

    package func delay(afterAttempt attempt: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        let exponent = min(max(attempt - 1, 0), 30)
        let full = min(baseDelay * (1 << exponent), maximumDelay)
        return full / 2 + full / 2 * Double.random(in: 0...1, using: &generator)
    }
}
