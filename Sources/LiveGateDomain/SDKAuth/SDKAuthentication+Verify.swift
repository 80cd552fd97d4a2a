import APNsCore
import Foundation

extension SDKAuthentication {
    /// Checks an SDK authentication JWT and returns its `sub`: signed with `alg` by one of the app's
    /// keys of that type, `exp` present and not past, `nbf` and `iat` (when present) not ahead, each
    /// within `clockLeeway`. The signature is checked before any claim is believed.
    package func verify(token text: String, now: Date) throws(SDKTokenError) -> String {
        let token = try SDKToken.parse(text)
        let candidates = keys.filter { $0.algorithm == token.algorithm }
        guard !candidates.isEmpty else {
            let accepted = Set(keys.map(\.algorithm.rawValue)).sorted().joined(separator: " or ")
            throw SDKTokenError(
                .unsupportedAlgorithm,
                "the token is signed with \(token.algorithm.rawValue), but this app's keys check \(accepted.isEmpty ? "nothing" : accepted)"
            )
        }
        guard candidates.contains(where: { $0.verify(signature: token.signature, of: token.signingInput) }) else {
            throw SDKTokenError(.badSignature, "the token's signature does not match this app's public keys")
        }
        guard let subject = token.claims["sub"]?.stringValue else {
            throw SDKTokenError(.invalidClaims, "the token has no sub (the user's external_id)")
        }
        guard let expiry = try Self.time("exp", in: token.claims) else {
            throw SDKTokenError(.invalidClaims, "the token has no exp: SDK authentication tokens must expire")
        }
        let leeway = Self.clockLeeway
        guard now.timeIntervalSince1970 < expiry + leeway else {
            throw SDKTokenError(.expired, "the token expired at \(Date(timeIntervalSince1970: expiry).iso8601)")
        }
        for claim in ["nbf", "iat"] {
            if let time = try Self.time(claim, in: token.claims), time > now.timeIntervalSince1970 + leeway {
                let meaning = claim == "nbf" ? "is not valid before" : "is issued at"
                throw SDKTokenError(
                    .notYetValid, "the token \(meaning) \(Date(timeIntervalSince1970: time).iso8601), later than now")
            }
        }
        return subject
    }

    /// A NumericDate claim (seconds since 1970, fractions allowed), nil when absent.
    private static func time(_ claim: String, in claims: JSONObject) throws(SDKTokenError) -> TimeInterval? {
        guard let value = claims[claim] else { return nil }
        guard let seconds = value.doubleValue, seconds.isFinite else {
            throw SDKTokenError(.invalidClaims, "the token's \(claim) must be a number of seconds since 1970")
        }
        return seconds
    }
}
