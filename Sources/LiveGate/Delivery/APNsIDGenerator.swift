import APNsCore
import Foundation

/// `apns-id`s for one page of pushes: random version-4 UUIDs from a `SplitMix64` seeded once, instead
/// of a system call for every push. They need to be unique, not secret.
struct APNsIDGenerator {
    private var words = SplitMix64()

    mutating func nextID() -> UUID {
        let (high, low) = words.nextUUIDv4()
        let bytes = (
            UInt8(truncatingIfNeeded: high >> 56), UInt8(truncatingIfNeeded: high >> 48),
            UInt8(truncatingIfNeeded: high >> 40), UInt8(truncatingIfNeeded: high >> 32),
            UInt8(truncatingIfNeeded: high >> 24), UInt8(truncatingIfNeeded: high >> 16),
            UInt8(truncatingIfNeeded: high >> 8), UInt8(truncatingIfNeeded: high),
            UInt8(truncatingIfNeeded: low >> 56), UInt8(truncatingIfNeeded: low >> 48),
            UInt8(truncatingIfNeeded: low >> 40), UInt8(truncatingIfNeeded: low >> 32),
            UInt8(truncatingIfNeeded: low >> 24), UInt8(truncatingIfNeeded: low >> 16),
            UInt8(truncatingIfNeeded: low >> 8), UInt8(truncatingIfNeeded: low))
        return UUID(uuid: bytes)
    }
}
