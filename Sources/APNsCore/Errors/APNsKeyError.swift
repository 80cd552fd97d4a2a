/// A signing or verifying key could not be used. The description names the problem, never the key.
public struct APNsKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: RawRepresentable, Sendable, Hashable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Not a PEM key OpenSSL can read.
        public static let unreadable = Code(rawValue: "unreadable")
        /// A key, but not an EC key on P-256 as APNs requires.
        public static let notP256 = Code(rawValue: "notP256")
        /// OpenSSL failed while signing or verifying.
        public static let cryptoFailure = Code(rawValue: "cryptoFailure")
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Why a PEM key was refused: unreadable, or not on P-256.
    public static func unusablePEM(notP256: Bool, isPrivate: Bool) -> APNsKeyError {
        notP256
            ? APNsKeyError(.notP256, "APNs keys are EC keys on the P-256 curve")
            : APNsKeyError(.unreadable, isPrivate ? "not a PKCS#8 PEM private key (.p8)" : "not a PEM public key")
    }

    public var description: String { "APNsKeyError(\(code.rawValue)): \(message)" }
}
