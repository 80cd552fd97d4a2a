/// A public key given for SDK authentication could not be used. The message says what to give instead
/// and never repeats the key.
package struct SDKAuthKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added, so switch over them with a default.
    package struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case unreadable
            case notPublic
            case unsupportedKey
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// Not one `-----BEGIN PUBLIC KEY-----` PEM block OpenSSL can read.
        package static let unreadable = Code(.unreadable)
        /// A private key or a certificate, where only the public key belongs.
        package static let notPublic = Code(.notPublic)
        /// A public key of a type or size JWTs here are not checked with.
        package static let unsupportedKey = Code(.unsupportedKey)

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
