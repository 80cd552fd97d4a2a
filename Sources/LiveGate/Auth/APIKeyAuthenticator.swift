/// Turns a presented key into the stored `APIKey`, or says why it cannot.
public struct APIKeyAuthenticator: Sendable {
    public enum Outcome: Sendable, Equatable {
        case authenticated(APIKey)
        case unknown
        case revoked
    }

    let repository: any APIKeyRepository

    public init(repository: any APIKeyRepository) {
        self.repository = repository
    }

    public func authenticate(_ presented: String) async throws -> Outcome {
        // Keys are ASCII of a known shape; anything else cannot match and needs no database round trip.
        guard presented.hasPrefix(APIKeySecret.prefix), presented.utf8.count <= 128 else { return .unknown }
        let hash = APIKeySecret(value: presented).hash
        guard let (key, storedHash) = try await repository.find(hash: hash) else { return .unknown }
        // The index lookup already matched the hash; compare again without early exit so the check
        // itself never depends on timing.
        guard ConstantTime.equals(hash, storedHash) else { return .unknown }
        return key.isRevoked ? .revoked : .authenticated(key)
    }
}
