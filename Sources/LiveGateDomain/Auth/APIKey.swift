import Foundation

/// A REST API key as stored: everything but the key itself, of which only a SHA-256 hash is kept.
package struct APIKey: Sendable, Equatable {
    package let id: UUID
    package let workspaceID: UUID
    package let name: String
    /// The key's first characters, enough for a person to tell keys apart, far too few to use one.
    package let hint: String
    package let permissions: Set<APIKeyPermission>
    /// Networks the key may be used from; empty means any.
    package let allowedNetworks: [IPNetwork]
    package let createdAt: Date
    package let revokedAt: Date?

    package init(
        id: UUID, workspaceID: UUID, name: String, hint: String, permissions: Set<APIKeyPermission>, allowedNetworks: [IPNetwork],
        createdAt: Date, revokedAt: Date?
    ) {
        self.id = id
        self.workspaceID = workspaceID
        self.name = name
        self.hint = hint
        self.permissions = permissions
        self.allowedNetworks = allowedNetworks
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }

    package var isRevoked: Bool { revokedAt != nil }

    /// True when the key has no allowlist or `address` lies in one of its networks.
    package func allows(_ address: IPAddress?) -> Bool {
        if allowedNetworks.isEmpty { return true }
        guard let address else { return false }
        return allowedNetworks.contains { $0.contains(address) }
    }
}
