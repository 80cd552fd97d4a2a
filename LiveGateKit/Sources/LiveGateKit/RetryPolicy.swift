import Foundation

/// How long a report that could not be sent waits before the next try: exponential from `baseDelay`,
/// at most `maximumDelay`, each wait drawn between half and all of it (jitter, so many devices that
/// lost the gateway together do not come back together). A `Retry-After` answer waits at least that.
@available(iOS 16.0, macOS 13.0, *)
public struct RetryPolicy: Sendable, Equatable {
    public var baseDelay: Duration
    public var maximumDelay: Duration

    public init(baseDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(300)) {
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
    }

    /// The wait after `failures` failed tries in a row (1 for the first).
    func delay(afterFailures failures: Int, retryAfter: Duration? = nil) -> Duration {
        let exponent = min(max(failures - 1, 0), 30)
        let full = min(baseDelay * (1 << exponent), maximumDelay)
        let jittered = full * Double.random(in: 0.5...1.0)
        guard let retryAfter else { return jittered }
        return max(jittered, retryAfter)
    }
}
