/// A fast random generator for `apns-id`s, which must be unique, not secret: seeded once from the
/// system's randomness, then SplitMix64, a full-period 64-bit sequence (no value repeats within 2^64
/// draws), instead of a read of the system's random source for every id.
public struct SplitMix64: RandomNumberGenerator {
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
}
