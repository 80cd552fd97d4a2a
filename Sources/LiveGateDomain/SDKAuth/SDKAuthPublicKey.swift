import COpenSSL
import Foundation

/// A public key that checks SDK authentication JWTs: an EC key on P-256 (ES256) or an RSA key of 2048
/// to 8192 bits (RS256), read from a SubjectPublicKeyInfo PEM. The `EVP_PKEY` is owned here and freed
/// once, in `deinit`; it is never changed after loading and each check uses its own context, so one key
/// checks tokens from several threads.
package final class SDKAuthPublicKey: @unchecked Sendable {
    package static let rsaBits = 2048...8192

    private let key: OpaquePointer
    package let algorithm: SDKAuthAlgorithm
    package let bits: Int
    /// The key as OpenSSL writes it back: what is stored, whatever the file around it looked like.
    package let pem: String
    /// SHA-256 of the DER SubjectPublicKeyInfo, in hex: what
    /// `openssl pkey -pubin -in key.pem -outform DER | openssl dgst -sha256` prints.
    package let fingerprint: String

    package init(pem text: String) throws(SDKAuthKeyError) {
        try Self.checkShape(text)
        let bytes = Array(text.utf8)
        let read: OpaquePointer? = bytes.withUnsafeBytes { raw in
            guard let bio = lg_bio_from_bytes(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PUBKEY(bio, nil, nil, nil)
        }
        ERR_clear_error()
        guard let read else {
            throw SDKAuthKeyError(.unreadable, "not a readable public key PEM ('-----BEGIN PUBLIC KEY-----', SubjectPublicKeyInfo)")
        }
        do {
            (algorithm, bits) = try Self.kind(of: read)
            (pem, fingerprint) = try Self.canonicalForms(of: read)
        } catch {
            EVP_PKEY_free(read)
            throw error
        }
        key = read
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// True when `signature` is this key's `algorithm` signature of `message`. An ES256 signature is
    /// JOSE's 64-byte r‖s, turned into the DER OpenSSL checks.
    package func verify(signature: [UInt8], of message: [UInt8]) -> Bool {
        let checked: [UInt8]
        switch algorithm {
        case .es256:
            guard signature.count == 64, let der = ECDSASignature.der(fromRaw: signature) else { return false }
            checked = der
        case .rs256:
            checked = signature
        }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        let verified = message.withUnsafeBufferPointer { input in
            checked.withUnsafeBufferPointer { sig in
                // For an RSA key OpenSSL's default padding is PKCS#1 v1.5, which RS256 is.
                EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1
                    && EVP_DigestVerify(context, sig.baseAddress, sig.count, input.baseAddress, input.count) == 1
            }
        }
        ERR_clear_error()
        return verified
    }

    /// Names the usual wrong files before OpenSSL is asked, so the message says what to do.
    private static func checkShape(_ text: String) throws(SDKAuthKeyError) {
        if text.contains("PRIVATE KEY-----") {
            throw SDKAuthKeyError(
                .notPublic, "this is a private key: give only its public half (openssl pkey -in key.pem -pubout)")
        }
        if text.contains("-----BEGIN CERTIFICATE-----") {
            throw SDKAuthKeyError(
                .notPublic, "this is a certificate: give its public key (openssl x509 -in cert.pem -pubkey -noout)")
        }
        if text.contains("-----BEGIN RSA PUBLIC KEY-----") {
            throw SDKAuthKeyError(
                .unreadable,
                "this is a PKCS#1 RSA key: convert it to SubjectPublicKeyInfo (openssl pkey -pubin -in key.pem -out spki.pem)")
        }
        let blocks = text.components(separatedBy: "-----BEGIN ").count - 1
        if blocks > 1 {
            throw SDKAuthKeyError(.unreadable, "the file holds \(blocks) PEM blocks: give one public key per file")
        }
    }

    private static func kind(of key: OpaquePointer) throws(SDKAuthKeyError) -> (SDKAuthAlgorithm, Int) {
        let bits = Int(EVP_PKEY_get_bits(key))
        switch EVP_PKEY_get_base_id(key) {
        case EVP_PKEY_EC:
            var name = [CChar](repeating: 0, count: 64)
            var length = 0
            let named = EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1
            ERR_clear_error()
            guard named, String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) == "prime256v1"
            else {
                throw SDKAuthKeyError(.unsupportedKey, "EC keys must be on the P-256 curve (prime256v1), for ES256")
            }
            return (.es256, bits)
        case EVP_PKEY_RSA:
            guard rsaBits.contains(bits) else {
                throw SDKAuthKeyError(
                    .unsupportedKey, "RSA keys must have \(rsaBits.lowerBound) to \(rsaBits.upperBound) bits, this one has \(bits)")
            }
            return (.rs256, bits)
        default:
            throw SDKAuthKeyError(
                .unsupportedKey, "unsupported key type: give an EC P-256 key (ES256) or an RSA key (RS256)")
        }
    }

    private static func canonicalForms(of key: OpaquePointer) throws(SDKAuthKeyError) -> (pem: String, fingerprint: String) {
        var der: UnsafeMutablePointer<UInt8>?
        let length = i2d_PUBKEY(key, &der)
        guard length > 0, let der else {
            ERR_clear_error()
            throw SDKAuthKeyError(.unreadable, "the public key could not be encoded")
        }
        let bytes = Data(UnsafeBufferPointer(start: der, count: Int(length)))
        CRYPTO_free(der, #fileID, #line)
        let body = bytes.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return (
            "-----BEGIN PUBLIC KEY-----\n\(body)\n-----END PUBLIC KEY-----\n",
            SHA256Digest.hash(bytes).map { String(format: "%02x", $0) }.joined()
        )
    }
}
