import Foundation
import HTTPTypes

/// Whether one request fits its workspace's hourly limit, and the headers that say where it stands.
package struct RateLimitDecision: Sendable, Equatable {
    package let allowed: Bool
    package let limit: Int
    /// Requests left this hour after this one (exact on one gateway; see `RateLimiter`).
    package let remaining: Int
    /// When the window resets: the next clock hour, UTC epoch seconds.
    package let resetAt: Int64
    /// Seconds until then, for a refused request.
    package let retryAfter: Int64

    static let limitHeader = HTTPField.Name("X-RateLimit-Limit")!
    static let remainingHeader = HTTPField.Name("X-RateLimit-Remaining")!
    static let resetHeader = HTTPField.Name("X-RateLimit-Reset")!
    static let retryAfterHeader = HTTPField.Name("X-RateLimit-Retry-After")!

    /// `X-RateLimit-*` on every answer; a refusal also says when to retry (Braze's
    /// `X-RateLimit-Retry-After`, and the standard `Retry-After`).
    package var headers: HTTPFields {
        var fields: HTTPFields = [
            Self.limitHeader: String(limit), Self.remainingHeader: String(remaining), Self.resetHeader: String(resetAt),
        ]
        if !allowed {
            fields[Self.retryAfterHeader] = String(retryAfter)
            fields[.retryAfter] = String(retryAfter)
        }
        return fields
    }
}
