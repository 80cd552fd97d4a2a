import APNsCore

/// The secret a caller presents as `Authorization: Bearer <key>`.
///
/// 256 random bits, base64url, after a `lg_` prefix that makes leaked keys easy to spot in scanners.
/// Its `description` is redacted so a key printed by mistake does not leak.
package struct APIKeySecret: Sendable, CustomStringConvertible {
    package static let prefix = "lg_"
    private static let randomByteCount = 32

    package let value: String

    package init(value: String) { self.value = value }

    package static func generate() -> APIKeySecret {
        APIKeySecret(value: prefix + Base64URL.encode(SecureRandom.bytes(count: randomByteCount)))
    }

    /// The SHA-256 hash stored in place of the key.
    package var hash: [UInt8] { SHA256Digest.hash(Array(value.utf8)) }

    /// What `key list` shows: the prefix and six characters.
    package var hint: String { String(value.prefix(Self.prefix.count + 6)) }

    package var description: String { "APIKeySecret(\(hint)…)" }
}
