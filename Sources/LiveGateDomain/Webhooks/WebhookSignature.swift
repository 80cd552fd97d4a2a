import COpenSSL

/// `LiveGate-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`: the time is
/// signed with the body, so a receiver can refuse a replayed batch by its age.
package enum WebhookSignature {
    package static let headerName = "LiveGate-Signature"

    package static func header(secret: String, timestamp: Int64, body: [UInt8]) -> String {
        "t=\(timestamp),v1=\(hex(hmacSHA256(key: Array(secret.utf8), message: Array("\(timestamp).".utf8) + body)))"
    }

    /// HMAC-SHA256 through OpenSSL's one-shot `HMAC`.
    package static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { messageBytes in
                digest.withUnsafeMutableBufferPointer { output in
                    HMAC(
                        EVP_sha256(), keyBytes.baseAddress, Int32(key.count), messageBytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                        message.count, output.baseAddress, &length)
                }
            }
        }
        precondition(result != nil, "OpenSSL HMAC(SHA-256) failed")
        return Array(digest.prefix(Int(length)))
    }

    package static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// A new endpoint's secret: 32 random bytes, in hex.
    package static func newSecret() -> String {
        hex(SecureRandom.bytes(count: 32))
    }
}
