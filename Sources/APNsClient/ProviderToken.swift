import APNsCore
import Foundation

/// An APNs provider authentication token: a JWT with header `{"alg":"ES256","kid":…}` and claims
/// `{"iss":…,"iat":…}`, signed with the team's key.
public struct ProviderToken: Sendable, Equatable {
    /// The compact JWT, sent as `authorization: bearer <value>`.
    public let value: String
    public let issuedAt: Date

    /// Signs a new token. `issuedAt` is truncated to whole seconds, as `iat` is.
    public static func sign(
        teamID: String, keyID: String, key: P256SigningKey, issuedAt: Date
    ) throws(APNsKeyError)
        -> ProviderToken
    {
        let seconds = Int64(issuedAt.timeIntervalSince1970.rounded(.down))
        let header = JSONValue.object(JSONObject([("alg", .string("ES256")), ("kid", .string(keyID))]))
        let claims = JSONValue.object(JSONObject([("iss", .string(teamID)), ("iat", .number(String(seconds)))]))
        let signingInput = Base64URL.encode(header.serialized()) + "." + Base64URL.encode(claims.serialized())
        let signature = try key.sign(Array(signingInput.utf8))
        return ProviderToken(
            value: signingInput + "." + Base64URL.encode(signature),
            issuedAt: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}
