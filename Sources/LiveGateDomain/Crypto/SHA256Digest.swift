import COpenSSL

/// SHA-256 through OpenSSL's one-shot EVP digest.
package enum SHA256Digest {
    package static func hash<Bytes: Collection>(_ input: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        let contiguous = Array(input)
        let status = contiguous.withUnsafeBytes { message in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(message.baseAddress, message.count, output.baseAddress, nil, EVP_sha256(), nil)
            }
        }
        precondition(status == 1, "OpenSSL EVP_Digest(SHA-256) failed")
        return digest
    }
}
