/// What signs an app's APNs provider tokens. The private key never leaves the gateway: it is not
/// printed, logged or returned, and `description` leaves it out.
public struct APNsCredentials: Sendable, Equatable, CustomStringConvertible {
    public let teamID: String
    public let keyID: String
    /// PKCS#8 PEM of a P-256 key, as in Apple's `.p8` file.
    public let privateKeyPEM: String

    public init(teamID: String, keyID: String, privateKeyPEM: String) {
        self.teamID = teamID
        self.keyID = keyID
        self.privateKeyPEM = privateKeyPEM
    }

    public var description: String { "APNsCredentials(teamID: \(teamID), keyID: \(keyID))" }
}
