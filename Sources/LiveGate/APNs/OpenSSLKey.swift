import COpenSSL

/// Reads a PEM key into an `EVP_PKEY` and checks it is P-256. The caller owns the result.
enum OpenSSLKey {
    static func read(pem: String, isPrivate: Bool) throws(APNsKeyError) -> OpaquePointer {
        let bytes = Array(pem.utf8)
        let key: OpaquePointer? = bytes.withUnsafeBytes { raw in
            guard let bio = lg_bio_from_bytes(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            return isPrivate ? PEM_read_bio_PrivateKey(bio, nil, nil, nil) : PEM_read_bio_PUBKEY(bio, nil, nil, nil)
        }
        ERR_clear_error()
        guard let key else {
            throw APNsKeyError(.unreadable, isPrivate ? "not a PKCS#8 PEM private key (.p8)" : "not a PEM public key")
        }
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC, EVP_PKEY_get_bits(key) == 256 else {
            EVP_PKEY_free(key)
            throw APNsKeyError(.notP256, "APNs keys are EC keys on the P-256 curve")
        }
        return key
    }
}
