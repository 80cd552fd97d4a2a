import LiveGateAPI
import LiveGateDomain
import LiveGateStore
import Logging
import ServiceLifecycle

/// When the gateway stops, returns the quota it leased but did not spend, so other gateways sharing
/// the database can use it this hour.
package struct QuotaReturnService: Service {
    let limiter: RateLimiter
    let clock: MessageClock

    package init(limiter: RateLimiter, clock: MessageClock = .system) {
        self.limiter = limiter
        self.clock = clock
    }

    package func run() async throws {
        try? await gracefulShutdown()
        await limiter.giveBackUnspent(now: clock.now())
    }
}
