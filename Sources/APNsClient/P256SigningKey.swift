import APNsCore
import COpenSSL

/// An APNs signing key (Apple's `.p8`: PKCS#8 PEM, P-256), held by OpenSSL. The `EVP_PKEY` is owned
/// here and freed once, in `deinit`; it is never changed after loading, and each signature uses its own
/// context, so one key can sign from several threads.
public final class P256SigningKey: @unchecked Sendable {
    private let key: OpaquePointer

    public init(pem: String) throws(APNsKeyError) {
        var problem: Int32 = 0
        let bytes = Array(pem.utf8)
        let key = bytes.withUnsafeBytes { lg_read_p256_pem($0.baseAddress, Int32($0.count), 1, &problem) }
        guard let key else { throw .unusablePEM(notP256: problem == Int32(LG_PEM_NOT_P256), isPrivate: true) }
        self.key = key
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// ES256 over `message`: ECDSA P-256 with SHA-256, as the 64-byte r‖s JWTs use (not DER).
    public func sign(_ message: [UInt8]) throws(APNsKeyError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw APNsKeyError(.cryptoFailure, "no digest context") }
        defer { EVP_MD_CTX_free(context) }
        var der = [UInt8](repeating: 0, count: 80)
        var length = der.count
        let signed = message.withUnsafeBufferPointer { input in
            EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1
                && EVP_DigestSign(context, &der, &length, input.baseAddress, input.count) == 1
        }
        guard signed else {
            ERR_clear_error()
            throw APNsKeyError(.cryptoFailure, "ECDSA signing failed")
        }
        return try Self.rawSignature(fromDER: Array(der.prefix(length)))
    }

    /// DER `ECDSA-Sig-Value` to r‖s, each 32 bytes big-endian.
    static func rawSignature(fromDER der: [UInt8]) throws(APNsKeyError) -> [UInt8] {
        let signature: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let signature else { throw APNsKeyError(.cryptoFailure, "unreadable ECDSA signature") }
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(signature, &r, &s)
        var raw = [UInt8](repeating: 0, count: 64)
        let written = raw.withUnsafeMutableBufferPointer { output in
            BN_bn2binpad(r, output.baseAddress, 32) == 32 && BN_bn2binpad(s, output.baseAddress! + 32, 32) == 32
        }
        guard written else { throw APNsKeyError(.cryptoFailure, "ECDSA signature does not fit P-256") }
        return raw
    }
}
