import APNsCore
import Foundation
@testable import LiveGateDelivery
import LiveGateDomain
import Testing

/// The registry of throttled devices and channels: each key's own wait, from `retry-after` or growing
/// with its 429s in a row, ended by an accepted push, bounded in size.
@Suite("Token backoff after APNs's 429 TooManyRequests")
struct TokenBackoffTests {
    static let policy = RetryPolicy(maximumAttempts: 4, baseDelay: .milliseconds(100), maximumDelay: .seconds(2))
    static let scope = TokenBackoff.Scope(
        APNsDestination(
            endpoint: .sandbox, bundleID: "com.example.app",
            credentials: APNsCredentials(teamID: "TEAM123456", keyID: "KEY1234567", privateKeyPEM: "")))

    static func key(_ byte: Int) -> TokenBackoff.Key {
        TokenBackoff.Key(scope: scope, target: .device(PushToken(hex: String(repeating: String(format: "%02x", byte), count: 32))!))
    }

    @Test func aThrottledKeyWaitsAndNoOtherDoes() {
        let backoff = TokenBackoff(policy: Self.policy)
        let now = ContinuousClock.now
        let wait = backoff.throttled(Self.key(1), retryAfter: nil, now: now)
        #expect(wait >= .milliseconds(50) && wait <= .milliseconds(100), "the base delay, with jitter")
        let times = backoff.notBefore([Self.key(1), Self.key(2)], now: now)
        #expect(times[0] == now + wait)
        #expect(times[1] == nil)
        #expect(backoff.notBefore([Self.key(1)], now: now + wait) == [nil], "free once its time has come")
    }

    @Test func retryAfterIsTakenAsGiven() {
        let backoff = TokenBackoff(policy: Self.policy)
        let now = ContinuousClock.now
        #expect(backoff.throttled(Self.key(1), retryAfter: .seconds(7), now: now) == .seconds(7))
        #expect(backoff.notBefore([Self.key(1)], now: now + .seconds(6)) == [now + .seconds(7)])
        // A shorter wait asked later does not bring a longer one forward.
        #expect(backoff.throttled(Self.key(1), retryAfter: .seconds(1), now: now + .seconds(1)) == .seconds(6))
    }

    @Test func consecutive429sWaitLongerUpToTheMaximumAndASuccessStartsOver() {
        let backoff = TokenBackoff(policy: Self.policy)
        var now = ContinuousClock.now
        var waits: [Duration] = []
        for _ in 0..<8 {
            let wait = backoff.throttled(Self.key(3), retryAfter: nil, now: now)
            waits.append(wait)
            now = now + wait
        }
        // Exponential with jitter: each wait lies in [full/2, full] of base × 2^(n-1), at most 2 s.
        for (index, wait) in waits.enumerated() {
            let full = min(Self.policy.baseDelay * (1 << index), Self.policy.maximumDelay)
            #expect(wait >= full / 2 && wait <= full, "wait \(index + 1): \(wait)")
        }
        backoff.accepted([Self.key(3)])
        #expect(backoff.count == 0)
        #expect(backoff.throttled(Self.key(3), retryAfter: nil, now: now) <= .milliseconds(100), "the streak ended")
    }

    @Test func aStreakLongPastItsWaitIsForgotten() {
        let backoff = TokenBackoff(policy: Self.policy, memory: .seconds(60))
        let now = ContinuousClock.now
        for _ in 0..<5 { backoff.throttled(Self.key(4), retryAfter: nil, now: now) }
        #expect(backoff.throttled(Self.key(4), retryAfter: nil, now: now + .seconds(120)) <= .milliseconds(100))
    }

    @Test func theRegistryStaysWithinItsCapacity() {
        let backoff = TokenBackoff(policy: Self.policy, capacity: 50, memory: .seconds(1))
        let now = ContinuousClock.now
        for byte in 0..<50 { backoff.throttled(Self.key(byte), retryAfter: .seconds(1), now: now) }
        #expect(backoff.count == 50)
        // Full of waits that ended long ago: they go, the new one stays.
        backoff.throttled(Self.key(200), retryAfter: .seconds(1), now: now + .seconds(10))
        #expect(backoff.count == 1)
        // Full of waits still running: the earliest tenth goes.
        for byte in 0..<49 { backoff.throttled(Self.key(byte), retryAfter: .seconds(Int64(100 + byte)), now: now + .seconds(10)) }
        #expect(backoff.count == 50)
        backoff.throttled(Self.key(201), retryAfter: .seconds(500), now: now + .seconds(10))
        #expect(backoff.count == 46)
        #expect(backoff.notBefore([Self.key(201)], now: now + .seconds(10)) != [nil])
        #expect(backoff.notBefore([Self.key(200)], now: now + .seconds(10)) == [nil], "the earliest went first")
    }

    @Test func aChannelIsAKeyOfItsOwn() {
        let backoff = TokenBackoff(policy: Self.policy)
        let channel = TokenBackoff.Key(scope: Self.scope, target: .channel(ChannelID(rawValue: "dHN0LXNyY2gtY2hubA==")))
        let now = ContinuousClock.now
        backoff.throttled(channel, retryAfter: .seconds(3), now: now)
        #expect(backoff.notBefore([channel, Self.key(1)], now: now) == [now + .seconds(3), nil])
    }
}
