import COpenSSL

/// Cryptographically strong random bytes from OpenSSL's DRBG.
package enum SecureRandom {
    static func bytes(count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let status = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        // Without entropy no key may be made; carrying on would hand out guessable secrets.
        precondition(status == 1, "OpenSSL RAND_bytes failed")
        return bytes
    }
}
