/// A public key given for SDK authentication could not be used. The message says what to give instead
/// and never repeats the key.
public struct SDKAuthKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: RawRepresentable, Sendable, Hashable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Not one `-----BEGIN PUBLIC KEY-----` PEM block OpenSSL can read.
        public static let unreadable = Code(rawValue: "unreadable")
        /// A private key or a certificate, where only the public key belongs.
        public static let notPublic = Code(rawValue: "notPublic")
        /// A public key of a type or size JWTs here are not checked with.
        public static let unsupportedKey = Code(rawValue: "unsupportedKey")
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
