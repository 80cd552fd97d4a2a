import APNsCore

/// Makes the `apns-id` of a push that came without one: a random version-4 UUID in lower case, as APNs
/// answers with. Foundation's `UUID()` reads the system's random source for every one, which took 9 % of
/// the simulator's CPU time per push; this one draws from a `SplitMix64` seeded once per connection.
struct APNsIDGenerator {
    private var words = SplitMix64()

    mutating func next() -> String {
        let (high, low) = words.nextUUIDv4()
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
}
