import COpenSSL

/// JOSE writes an ECDSA signature as r‖s (RFC 7518 §3.4); OpenSSL checks the DER `ECDSA-Sig-Value`.
package enum ECDSASignature {
    /// The DER form of a 64-byte P-256 r‖s, or nil if OpenSSL cannot build it.
    static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == 64 else { return nil }
        var output: UnsafeMutablePointer<UInt8>?
        let length = raw.withUnsafeBufferPointer { lg_ecdsa_p256_der_from_raw($0.baseAddress, &output) }
        guard length > 0, let output else { return nil }
        defer { CRYPTO_free(output, #fileID, #line) }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }
}
