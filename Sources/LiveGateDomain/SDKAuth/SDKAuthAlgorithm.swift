/// The JWT signature algorithms SDK authentication accepts (RFC 7518), each bound to one key type: a
/// token's `alg` must name its key's algorithm, so an RSA key is never asked to check an ES256 token.
/// `none` and the HMAC algorithms are not here: with them a public key would be a shared secret.
package enum SDKAuthAlgorithm: String, Sendable, CaseIterable {
    /// ECDSA on P-256 with SHA-256; the signature is r‖s, 32 bytes each.
    case es256 = "ES256"
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    case rs256 = "RS256"
}
