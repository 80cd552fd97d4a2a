import HTTPTypes
import LiveGateDomain

extension RateLimitDecision {
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
