import Logging
import ServiceLifecycle

/// When the gateway stops, returns the quota it leased but did not spend, so other gateways sharing
/// the database can use it this hour.
public struct QuotaReturnService: Service {
    let limiter: RateLimiter
    let clock: MessageClock

    public init(limiter: RateLimiter, clock: MessageClock = .system) {
        self.limiter = limiter
        self.clock = clock
    }

    public func run() async throws {
        try? await gracefulShutdown()
        await limiter.giveBackUnspent(now: clock.now())
    }
}
