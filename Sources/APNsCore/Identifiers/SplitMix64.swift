/// A fast random generator for `apns-id`s, which must be unique, not secret: seeded once from the
/// system's randomness, then SplitMix64, a full-period 64-bit sequence (no value repeats within 2^64
/// draws), instead of a read of the system's random source for every id.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init() {
        var system = SystemRandomNumberGenerator()
        state = system.next()
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The 128 bits of a random version-4 UUID (RFC 4122 variant), high word first, as an `apns-id` takes.
    public mutating func nextUUIDv4() -> (high: UInt64, low: UInt64) {
        let high = (next() & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000  // version 4
        let low = (next() & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // RFC 4122 variant
        return (high, low)
    }
}
