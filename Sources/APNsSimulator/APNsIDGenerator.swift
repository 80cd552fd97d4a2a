/// Makes the `apns-id` of a push that came without one: a random version-4 UUID in lower case, as APNs
/// answers with. Foundation's `UUID()` reads the system's random source for every one, which took 9 % of
/// the simulator's CPU time per push; this generator is seeded from it once (per connection) and then
/// runs SplitMix64, whose 2^64-long sequence does not repeat within any connection's life.
struct APNsIDGenerator {
    private var state: UInt64

    init() {
        var system = SystemRandomNumberGenerator()
        state = system.next()
    }

    mutating func next() -> String {
        let high = (nextWord() & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000  // version 4
        let low = (nextWord() & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // RFC 4122 variant
        return String(unsafeUninitializedCapacity: 36) { buffer in
            var index = 0
            func put(_ word: UInt64, nibbles: ClosedRange<Int>) {
                for nibble in nibbles.reversed() {
                    if index == 8 || index == 13 || index == 18 || index == 23 {
                        buffer[index] = UInt8(ascii: "-")
                        index += 1
                    }
                    buffer[index] = Self.hexDigits[Int((word >> UInt64(nibble * 4)) & 0xF)]
                    index += 1
                }
            }
            put(high, nibbles: 0...15)
            put(low, nibbles: 0...15)
            return index
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func nextWord() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
