import COpenSSL

/// JOSE writes an ECDSA signature as r‖s (RFC 7518 §3.4); OpenSSL checks the DER `ECDSA-Sig-Value`.
enum ECDSASignature {
    /// The DER form of a 64-byte P-256 r‖s, or nil if OpenSSL cannot build it.
    static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == 64, let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let r = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, nil) }
        let s = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + 32, 32, nil) }
        // set0 takes ownership of r and s on success; on failure they are still ours.
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        var output: UnsafeMutablePointer<UInt8>?
        let length = i2d_ECDSA_SIG(signature, &output)
        guard length > 0, let output else { return nil }
        defer { CRYPTO_free(output, #fileID, #line) }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }
}
