import Foundation
import UUIDText

/// `apns-id`s: random version-4 UUIDs from a `SplitMix64` seeded once, instead of a read of the
/// system's random source for every one (Foundation's `UUID()`, which took 9 % of the simulator's CPU
/// per push). They need to be unique, not secret. Sent as `lowercasedText`, as APNs answers them.
public struct APNsIDGenerator: Sendable {
    private var words = SplitMix64()

    public init() {}

    public mutating func next() -> UUID {
        let (high, low) = words.nextUUIDv4()
        return UUID(high: high, low: low)
    }
}
