/// Turns a presented key into the stored `APIKey`, or says why it cannot.
///
/// Found keys (valid or revoked) are kept for `cacheTimeToLive`, so a busy client costs no database
/// round trip per request; a revocation therefore takes up to that long to bite. Unknown keys are not
/// kept: a flood of made-up keys must not fill the cache.
package struct APIKeyAuthenticator: Sendable {
    package enum Outcome: Sendable, Equatable {
        case authenticated(APIKey)
        case unknown
        case revoked
    }

    let repository: any APIKeyRepository
    private let cache: ExpiringCache<[UInt8], APIKey>

    package init(repository: any APIKeyRepository, cacheTimeToLive: Duration = .zero) {
        self.repository = repository
        self.cache = ExpiringCache(timeToLive: cacheTimeToLive)
    }

    package func authenticate(_ presented: String) async throws -> Outcome {
        // Keys are ASCII of a known shape; anything else cannot match and needs no database round trip.
        guard presented.hasPrefix(APIKeySecret.prefix), presented.utf8.count <= 128 else { return .unknown }
        let hash = APIKeySecret(value: presented).hash
        let found = try await cache.value(for: hash) { () async throws -> APIKey? in
            guard let (key, storedHash) = try await repository.find(hash: hash) else { return nil }
            // The index lookup already matched the hash; compare again without early exit so the check
            // itself never depends on timing.
            return ConstantTime.equals(hash, storedHash) ? key : nil
        }
        guard let key = found else { return .unknown }
        return key.isRevoked ? .revoked : .authenticated(key)
    }
}
