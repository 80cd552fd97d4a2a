import COpenSSL
import Foundation
import UUIDText

/// Dispatch ids are version-7 UUIDs (RFC 9562): the acceptance time in milliseconds, then 74 random
/// bits. Ids made close together sort together, so each commit adds to the right edge of the primary
/// key's index instead of a random page of it, and making one reads no system file: Foundation's
/// `UUID()` opens `/dev/urandom` for every id on Linux.
package enum DispatchIdentifier {
    package static func make(acceptedAt: Date) -> UUID {
        var random = (UInt64(0), UInt64(0))
        let status = withUnsafeMutableBytes(of: &random) { RAND_bytes($0.baseAddress, Int32($0.count)) }
        // An id must not repeat; without entropy, stop rather than hand out colliding ones.
        precondition(status == 1, "OpenSSL RAND_bytes failed")
        let milliseconds = UInt64(max(0, (acceptedAt.timeIntervalSince1970 * 1000).rounded(.down))) & 0xFFFF_FFFF_FFFF
        let high = milliseconds << 16 | 0x7000 | (random.0 & 0x0FFF)  // version 7, 12 random bits
        let low = (random.1 & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // RFC 9562 variant, 62 random bits
        return UUID(high: high, low: low)
    }
}
