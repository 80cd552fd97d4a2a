/// A signing or verifying key could not be used. The description names the problem, never the key.
public struct APNsKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added, so switch over them with a default.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case unreadable
            case notP256
            case cryptoFailure
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// Not a PEM key OpenSSL can read.
        public static let unreadable = Code(.unreadable)
        /// A key, but not an EC key on P-256 as APNs requires.
        public static let notP256 = Code(.notP256)
        /// OpenSSL failed while signing or verifying.
        public static let cryptoFailure = Code(.cryptoFailure)

        public var description: String { base.rawValue }
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

    public var description: String { "APNsKeyError(\(code.description)): \(message)" }
}
