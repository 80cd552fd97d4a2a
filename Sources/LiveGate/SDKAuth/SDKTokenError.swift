/// Why an SDK authentication JWT was not accepted; the message is for the app's developer and never
/// repeats the token.
public struct SDKTokenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added, so switch over them with a default.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
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
        public static let malformed = Code(.malformed)
        /// `alg` is not ES256 or RS256, or the app has no key of that type.
        public static let unsupportedAlgorithm = Code(.unsupportedAlgorithm)
        public static let badSignature = Code(.badSignature)
        /// `exp` missing, or a time claim that is not a number.
        public static let invalidClaims = Code(.invalidClaims)
        public static let expired = Code(.expired)
        /// `nbf` or `iat` later than now (beyond the leeway).
        public static let notYetValid = Code(.notYetValid)

        public var description: String { base.rawValue }
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
