import Foundation

/// Storage of REST API keys.
package protocol APIKeyRepository: Sendable {
    /// Stores a new key; only its hash and hint are kept.
    func create(
        workspaceID: UUID, name: String, secret: APIKeySecret, permissions: Set<APIKeyPermission>,
        allowedNetworks: [IPNetwork]
    ) async throws -> APIKey
    /// The key whose SHA-256 hash is `hash`, revoked or not, with the hash as stored.
    func find(hash: [UInt8]) async throws -> (key: APIKey, storedHash: [UInt8])?
    func list(workspaceID: UUID) async throws -> [APIKey]
    /// Marks the key revoked; false when there is no such key.
    func revoke(id: UUID) async throws -> Bool
}
