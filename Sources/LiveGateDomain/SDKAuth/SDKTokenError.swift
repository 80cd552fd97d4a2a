/// Why an SDK authentication JWT was not accepted; the message is for the app's developer and never
/// repeats the token.
package struct SDKTokenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added, so switch over them with a default.
    package struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case malformed
            case unsupportedAlgorithm
            case badSignature
            case invalidClaims
            case expired
            case notYetValid
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// Not a compact JWS with JSON header and claims.
        package static let malformed = Code(.malformed)
        /// `alg` is not ES256 or RS256, or the app has no key of that type.
        package static let unsupportedAlgorithm = Code(.unsupportedAlgorithm)
        package static let badSignature = Code(.badSignature)
        /// `exp` missing, or a time claim that is not a number.
        package static let invalidClaims = Code(.invalidClaims)
        package static let expired = Code(.expired)
        /// `nbf` or `iat` later than now (beyond the leeway).
        package static let notYetValid = Code(.notYetValid)

        package var description: String { base.rawValue }
    }

    package let code: Code
    package let message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { message }
}
