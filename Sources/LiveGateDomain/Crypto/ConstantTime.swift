import COpenSSL

package enum ConstantTime {
    /// Compares two byte strings in time that depends only on their length, not on where they differ.
    static func equals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.withUnsafeBytes { left in
            rhs.withUnsafeBytes { right in
                CRYPTO_memcmp(left.baseAddress, right.baseAddress, lhs.count) == 0
            }
        }
    }
}
