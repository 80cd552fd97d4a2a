import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import Testing

@Suite("The per-address counter: clock minutes, IPv6 by /64, bounded memory")
struct AddressRateLimiterTests {
    /// 2026-11-22T15:59:58Z: two seconds before a minute (and the hour) turns.
    static let nearlyFour = Date(timeIntervalSince1970: 1_795_881_598)

    /// allowed, limit, remaining, reset, retry-after.
    static func fields(_ decision: RateLimitDecision) -> [Int64] {
        [decision.allowed ? 1 : 0, Int64(decision.limit), Int64(decision.remaining), decision.resetAt, decision.retryAfter]
    }

    @Test func theCountIsExactAndStartsOverWithTheMinute() {
        let limiter = AddressRateLimiter(limit: 2)
        let address = IPAddress("198.51.100.4")!
        let first = limiter.acquire(address, now: Self.nearlyFour)
        #expect(Self.fields(first) == [1, 2, 1, 1_795_881_600, 2])
        #expect(limiter.acquire(address, now: Self.nearlyFour).remaining == 0)
        #expect(Self.fields(limiter.acquire(address, now: Self.nearlyFour)) == [0, 2, 0, 1_795_881_600, 2])
        let next = limiter.acquire(address, now: Self.nearlyFour.addingTimeInterval(2))
        #expect(Self.fields(next) == [1, 2, 1, 1_795_881_660, 60])
        // A call stamped before the minute turned, counted after: it belongs to the new minute.
        #expect(limiter.acquire(address, now: Self.nearlyFour).resetAt == 1_795_881_660)
    }

    @Test func anIPv6ClientCountsByItsSlash64AndMappedIPv4AsIPv4() {
        let limiter = AddressRateLimiter(limit: 2)
        #expect(limiter.acquire(IPAddress("2001:db8:1:2::1")!, now: Self.nearlyFour).allowed)
        #expect(limiter.acquire(IPAddress("2001:db8:1:2:ffff::9")!, now: Self.nearlyFour).allowed)
        #expect(!limiter.acquire(IPAddress("2001:db8:1:2::77")!, now: Self.nearlyFour).allowed)
        #expect(limiter.acquire(IPAddress("2001:db8:1:3::1")!, now: Self.nearlyFour).allowed)

        #expect(limiter.acquire(IPAddress("192.0.2.1")!, now: Self.nearlyFour).allowed)
        #expect(limiter.acquire(IPAddress("::ffff:192.0.2.1")!, now: Self.nearlyFour).allowed)
        #expect(!limiter.acquire(IPAddress("192.0.2.1")!, now: Self.nearlyFour).allowed)
    }

    @Test func beyondItsCapacityNewAddressesGoUncountedUntilTheMinuteTurns() {
        let limiter = AddressRateLimiter(limit: 1, capacity: 2)
        #expect(limiter.acquire(IPAddress("192.0.2.1")!, now: Self.nearlyFour).allowed)
        #expect(limiter.acquire(IPAddress("192.0.2.2")!, now: Self.nearlyFour).allowed)
        // Counted addresses stay counted...
        #expect(!limiter.acquire(IPAddress("192.0.2.1")!, now: Self.nearlyFour).allowed)
        // ...a third is not kept, so memory stays bounded however many addresses a flood brings.
        for _ in 0..<3 { #expect(limiter.acquire(IPAddress("192.0.2.3")!, now: Self.nearlyFour).allowed) }
        let nextMinute = Self.nearlyFour.addingTimeInterval(2)
        #expect(limiter.acquire(IPAddress("192.0.2.3")!, now: nextMinute).allowed)
        #expect(!limiter.acquire(IPAddress("192.0.2.3")!, now: nextMinute).allowed)
    }
}
