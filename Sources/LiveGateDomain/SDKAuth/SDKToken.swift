import APNsCore

/// A JWT as the SDK presents it: a compact JWS (RFC 7515), `header.claims.signature` in base64url
/// without padding. Parsing checks the shape only; `SDKAuthentication.verify` checks the rest.
package struct SDKToken {
    /// Far above any real token (a few hundred bytes), low enough that no one makes the gateway decode
    /// a megabyte first.
    static let maximumBytes = 8192

    let algorithm: SDKAuthAlgorithm
    let claims: JSONObject
    /// The bytes the signature covers: the first two parts as sent, with their dot.
    let signingInput: [UInt8]
    let signature: [UInt8]

    static func parse(_ text: String) throws(SDKTokenError) -> SDKToken {
        let bytes = Array(text.utf8)
        guard bytes.count <= maximumBytes else { throw malformed("it is longer than \(maximumBytes) bytes") }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw malformed("a JWT is three base64url parts separated by dots") }
        let header = try object(parts[0], "header")
        guard let name = header["alg"]?.stringValue else { throw malformed("its header has no alg") }
        guard let algorithm = SDKAuthAlgorithm(rawValue: name) else {
            throw SDKTokenError(
                .unsupportedAlgorithm, "alg '\(name.prefix(16))' is not accepted: sign with ES256 or RS256")
        }
        // Extensions the signer marked critical would change what the signature means (RFC 7515 §4.1.11).
        guard header["crit"] == nil else { throw malformed("its header's crit names extensions this gateway does not support") }
        let claims = try object(parts[1], "claims")
        guard let signature = decode(parts[2]), !signature.isEmpty else { throw malformed("its signature is not base64url") }
        return SDKToken(
            algorithm: algorithm, claims: claims, signingInput: Array(bytes[..<parts[1].endIndex]), signature: signature)
    }

    /// A JSON object, with no member named twice: two `sub`s could be read differently by the signer.
    private static func object(_ part: ArraySlice<UInt8>, _ name: String) throws(SDKTokenError) -> JSONObject {
        guard let json = decode(part), let value = try? JSONValue.parse(json, maxDepth: 8), let object = value.objectValue
        else { throw malformed("its \(name) is not a base64url JSON object") }
        guard object.keys.count == object.count else { throw malformed("its \(name) names a member twice") }
        return object
    }

    /// Strict base64url: only its alphabet, no padding.
    private static func decode(_ part: ArraySlice<UInt8>) -> [UInt8]? {
        let valid = part.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                true
            default: false
            }
        }
        guard valid, part.count % 4 != 1 else { return nil }
        return Base64URL.decode(String(decoding: part, as: UTF8.self))
    }

    private static func malformed(_ reason: String) -> SDKTokenError {
        SDKTokenError(.malformed, "the token is not a valid JWT: \(reason)")
    }
}
