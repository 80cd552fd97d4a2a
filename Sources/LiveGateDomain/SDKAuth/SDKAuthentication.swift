import Foundation

/// An app's SDK authentication (Braze's "SDK Authentication"): the public keys its customer's server
/// signs user JWTs for, and whether a `/push_token_tag` call that names an `external_id` must carry one.
package struct SDKAuthentication: Sendable, Equatable {
    /// The current key and the next one, during a rotation.
    package static let maximumKeys = 2
    /// How far the gateway's clock and the signer's may disagree: a token is still good this long after
    /// its `exp`, and already good this long before its `nbf`/`iat`.
    package static let clockLeeway: TimeInterval = 60

    package static let off = SDKAuthentication(enforced: false, publicKeyPEMs: [])

    package let enforced: Bool
    /// As stored: the canonical PEMs `SDKAuthPublicKey` wrote.
    package let publicKeyPEMs: [String]
    /// The keys tokens are checked with, read once when the app is loaded (and then cached with it).
    package let keys: [SDKAuthPublicKey]

    /// A stored PEM OpenSSL cannot read (never written by LiveGate) leaves no key: tokens it would have
    /// checked fail, rather than the app failing to load for delivery too.
    package init(enforced: Bool, publicKeyPEMs: [String]) {
        self.enforced = enforced
        self.publicKeyPEMs = publicKeyPEMs
        self.keys = publicKeyPEMs.compactMap { try? SDKAuthPublicKey(pem: $0) }
    }

    package static func == (lhs: SDKAuthentication, rhs: SDKAuthentication) -> Bool {
        lhs.enforced == rhs.enforced && lhs.publicKeyPEMs == rhs.publicKeyPEMs
    }
}
