import Hummingbird
import LiveGateDomain
import Logging

/// Counts each call of a rate-limited endpoint against its workspace's hourly limit once the
/// key is known, before anything else is done: over the limit it is a 429 and nothing is recorded.
/// Every answer after that, success or error, carries the `X-RateLimit-*` headers.
package struct RateLimitMiddleware: RouterMiddleware {
    package typealias Context = LiveGateRequestContext
    let limiter: RateLimiter
    let limits: WorkspaceLimits
    let clock: MessageClock

    package init(limiter: RateLimiter, limits: WorkspaceLimits, clock: MessageClock) {
        self.limiter = limiter
        self.limits = limits
        self.clock = clock
    }

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let key = context.apiKey else { throw APIError.missingKey }
        guard let limit = try await limits.limit(for: key.workspaceID) else { throw APIError.invalidKey }
        let decision = try await limiter.acquire(workspaceID: key.workspaceID, limit: limit, now: clock.now())
        guard decision.allowed else {
            GatewayMetrics.refusedByRateLimit(route: context.endpointPath)
            context.logger.info("rate limited", metadata: ["limit": "\(limit)"])
            throw APIError(
                .tooManyRequests,
                "Rate limit exceeded: this workspace may make \(limit) requests per hour to \(limits.kind.endpoints); retry after \(decision.retryAfter) seconds",
                headers: decision.headers)
        }
        do {
            var response = try await next(request, context)
            response.headers.append(contentsOf: decision.headers)
            return response
        } catch {
            var refusal = ErrorMiddleware.apiError(for: error, request: request, context: context, routes: nil)
            refusal.headers.append(contentsOf: decision.headers)
            throw refusal
        }
    }
}
