import Foundation

/// An iOS app whose Live Activities a workspace drives (SPEC §2).
public struct App: Sendable, Equatable {
    public let id: UUID
    public let workspaceID: UUID
    /// Braze's "app API identifier": the `app_id` every request carries.
    public let identifier: String
    public let name: String
    public let bundleID: String
    public let endpoint: APNsEndpoint
    /// Nil for an app created without a signing key; its pushes are logged as "No push credential".
    public let credentials: APNsCredentials?
    public let createdAt: Date
}

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
