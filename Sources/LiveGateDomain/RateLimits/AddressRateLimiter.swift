import Foundation
import NIOConcurrencyHelpers

/// Counts calls per client address per clock minute (UTC) in this gateway's memory: a brake on one
/// source, cheap enough to run before anything else. An IPv6 client counts by its /64, the block one
/// subscriber is given (a host can pick any address in it). Each gateway counts on its own, so behind a
/// load balancer that spreads one address over N gateways it gets up to N × the limit.
///
/// Memory is bounded: at most `capacity` addresses are counted per minute; beyond that, further new
/// addresses go uncounted until the minute turns (a flood from that many addresses is no longer one
/// source, and the per-app limit still applies).
package final class AddressRateLimiter: Sendable {
    package static let windowSeconds: Int64 = 60

    /// An IPv4 address, or the first 64 bits of an IPv6 one.
    private struct Source: Hashable {
        let bits: UInt64
        let isIPv6: Bool

        init(_ address: IPAddress) {
            let bytes = address.unmapped.bytes
            isIPv6 = bytes.count == 16
            bits = bytes.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
        }
    }

    private struct Window {
        var start: Int64 = .min
        var counts: [Source: Int] = [:]
    }

    let limit: Int
    let capacity: Int
    private let window = NIOLockedValueBox(Window())

    package init(limit: Int, capacity: Int = 100_000) {
        self.limit = limit
        self.capacity = capacity
    }

    /// Counts one call from `address` at `now`, or refuses it.
    package func acquire(_ address: IPAddress, now: Date) -> RateLimitDecision {
        let second = Int64(now.timeIntervalSince1970.rounded(.down))
        let minute = second - ((second % Self.windowSeconds) + Self.windowSeconds) % Self.windowSeconds
        let source = Source(address)
        return window.withLockedValue { window in
            // A call stamped just before the minute turned counts in the new minute.
            if minute > window.start {
                window.start = minute
                window.counts.removeAll(keepingCapacity: true)
            }
            let resetAt = window.start + Self.windowSeconds
            let retryAfter = max(1, resetAt - second)
            let used = window.counts[source] ?? 0
            guard used < limit else {
                return RateLimitDecision(allowed: false, limit: limit, remaining: 0, resetAt: resetAt, retryAfter: retryAfter)
            }
            if used > 0 || window.counts.count < capacity { window.counts[source] = used + 1 }
            return RateLimitDecision(
                allowed: true, limit: limit, remaining: limit - used - 1, resetAt: resetAt, retryAfter: retryAfter)
        }
    }
}
