/// Whether one request fits its workspace's hourly limit; the headers that say where it stands are the
/// API's (`RateLimitDecision+Headers`).
package struct RateLimitDecision: Sendable, Equatable {
    package let allowed: Bool
    package let limit: Int
    /// Requests left this hour after this one (exact on one gateway; see `RateLimiter`).
    package let remaining: Int
    /// When the window resets: the next clock hour, UTC epoch seconds.
    package let resetAt: Int64
    /// Seconds until then, for a refused request.
    package let retryAfter: Int64
}
