import Hummingbird
import LiveGateDomain

extension RouterGroup where Context == LiveGateRequestContext {
    /// Puts the workspace's hourly limit in front of the routes added after it; nil (limits off, for
    /// measuring what they cost) adds nothing.
    @discardableResult
    func add(rateLimit: RateLimitMiddleware?) -> Self {
        if let rateLimit { add(middleware: rateLimit) }
        return self
    }
}
