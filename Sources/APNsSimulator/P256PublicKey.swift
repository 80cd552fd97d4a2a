import APNsCore
import COpenSSL

/// A P-256 public key (PEM), to check ES256 signatures: what APNs does with the key Apple keeps, and
/// what the APNs simulator does with the keys it is given.
package final class P256PublicKey: @unchecked Sendable {
    private let key: OpaquePointer

    package init(pem: String) throws(APNsKeyError) {
        key = try Self.read(pem: pem, isPrivate: false)
    }

    /// From a public key, or from the private key itself (its public half is inside), so a simulator can
    /// be given the same `.p8` file as the app.
    package init(publicOrPrivatePEM pem: String) throws(APNsKeyError) {
        if let publicKey = try? Self.read(pem: pem, isPrivate: false) {
            key = publicKey
        } else {
            key = try Self.read(pem: pem, isPrivate: true)
        }
    }

    private static func read(pem: String, isPrivate: Bool) throws(APNsKeyError) -> OpaquePointer {
        var problem: Int32 = 0
        let bytes = Array(pem.utf8)
        let key = bytes.withUnsafeBytes { lg_read_p256_pem($0.baseAddress, Int32($0.count), isPrivate ? 1 : 0, &problem) }
        guard let key else { throw .unusablePEM(notP256: problem == Int32(LG_PEM_NOT_P256), isPrivate: isPrivate) }
        return key
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// True when `signature` (64-byte r‖s) is a valid ES256 signature of `message`.
    package func verify(signature: [UInt8], of message: [UInt8]) -> Bool {
        guard signature.count == 64, let der = Self.derSignature(fromRaw: signature) else { return false }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        let verified = message.withUnsafeBufferPointer { input in
            der.withUnsafeBufferPointer { sig in
                EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1
                    && EVP_DigestVerify(context, sig.baseAddress, sig.count, input.baseAddress, input.count) == 1
            }
        }
        ERR_clear_error()
        return verified
    }

    /// JOSE's r‖s as the DER OpenSSL verifies (the shim's conversion, shared with SDK authentication).
    static func derSignature(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == 64 else { return nil }
        var output: UnsafeMutablePointer<UInt8>?
        let length = raw.withUnsafeBufferPointer { lg_ecdsa_p256_der_from_raw($0.baseAddress, &output) }
        guard length > 0, let output else { return nil }
        defer { CRYPTO_free(output, "P256PublicKey.swift", 0) }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }
}
