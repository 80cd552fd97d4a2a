/// Why an SDK authentication JWT was not accepted; the message is for the app's developer and never
/// repeats the token.
public struct SDKTokenError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: RawRepresentable, Sendable, Hashable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Not a compact JWS with JSON header and claims.
        public static let malformed = Code(rawValue: "malformed")
        /// `alg` is not ES256 or RS256, or the app has no key of that type.
        public static let unsupportedAlgorithm = Code(rawValue: "unsupportedAlgorithm")
        public static let badSignature = Code(rawValue: "badSignature")
        /// `exp` missing, or a time claim that is not a number.
        public static let invalidClaims = Code(rawValue: "invalidClaims")
        public static let expired = Code(rawValue: "expired")
        /// `nbf` or `iat` later than now (beyond the leeway).
        public static let notYetValid = Code(rawValue: "notYetValid")
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
