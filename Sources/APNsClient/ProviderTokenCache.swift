import APNsCore
import Foundation
import Synchronization

/// One provider token per signing key, reused as APNs asks: renewed after about 50 minutes (APNs
/// refuses tokens older than an hour) and never sooner than 20 minutes after the last renewal (APNs
/// answers `TooManyProviderTokenUpdates` to faster changes), except once when APNs rejects it.
public final class ProviderTokenCache: Sendable {
    public static let renewalAge: Duration = .seconds(50 * 60)
    public static let minimumRenewalInterval: Duration = .seconds(20 * 60)

    private struct Key: Hashable {
        let teamID: String
        let keyID: String
        /// The key itself: a credential replaced under the same ids gets a new token. (Hashing the text
        /// for the dictionary is cheaper than a digest on every push.)
        let privateKeyPEM: String
    }

    private struct Entry {
        let signingKey: P256SigningKey
        var token: ProviderToken
        /// Set when the token replaced one that APNs rejected: it is not replaced again for a while.
        var forced: Bool
    }

    private let entries = Mutex([Key: Entry]())
    private let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
    }

    /// The token to send for `credentials`, signing a new one when there is none or it is old.
    public func token(for credentials: APNsCredentials) throws(APNsKeyError) -> ProviderToken {
        let key = Self.key(for: credentials)
        let now = self.now()
        return try entries.withLock { entries throws(APNsKeyError) in
            if let entry = entries[key], .seconds(now.timeIntervalSince(entry.token.issuedAt)) < Self.renewalAge {
                return entry.token
            }
            let signingKey: P256SigningKey
            if let known = entries[key]?.signingKey {
                signingKey = known
            } else {
                signingKey = try P256SigningKey(pem: credentials.privateKeyPEM)
            }
            let token = try ProviderToken.sign(
                teamID: credentials.teamID, keyID: credentials.keyID, key: signingKey, issuedAt: now)
            entries[key] = Entry(signingKey: signingKey, token: token, forced: false)
            return token
        }
    }

    /// APNs rejected `rejected` (`ExpiredProviderToken`, `InvalidProviderToken`): returns a new token
    /// to retry with, or nil when retrying cannot help (the token was itself a forced renewal less than
    /// 20 minutes ago, so the credential is what is wrong). Concurrent rejections of one token renew once.
    public func renew(_ rejected: ProviderToken, for credentials: APNsCredentials) throws(APNsKeyError) -> ProviderToken? {
        let key = Self.key(for: credentials)
        let now = self.now()
        return try entries.withLock { entries throws(APNsKeyError) in
            guard let entry = entries[key] else { return nil }
            if entry.token != rejected { return entry.token }
            if entry.forced, .seconds(now.timeIntervalSince(entry.token.issuedAt)) < Self.minimumRenewalInterval { return nil }
            let token = try ProviderToken.sign(
                teamID: credentials.teamID, keyID: credentials.keyID, key: entry.signingKey, issuedAt: now)
            entries[key] = Entry(signingKey: entry.signingKey, token: token, forced: true)
            return token
        }
    }

    private static func key(for credentials: APNsCredentials) -> Key {
        Key(teamID: credentials.teamID, keyID: credentials.keyID, privateKeyPEM: credentials.privateKeyPEM)
    }
}
