import Foundation

/// A REST API key as stored: everything but the key itself, of which only a SHA-256 hash is kept.
public struct APIKey: Sendable, Equatable {
    public let id: UUID
    public let workspaceID: UUID
    public let name: String
    /// The key's first characters, enough for a person to tell keys apart, far too few to use one.
    public let hint: String
    public let permissions: Set<APIKeyPermission>
    /// Networks the key may be used from; empty means any.
    public let allowedNetworks: [IPNetwork]
    public let createdAt: Date
    public let revokedAt: Date?

    public var isRevoked: Bool { revokedAt != nil }

    /// True when the key has no allowlist or `address` lies in one of its networks.
    public func allows(_ address: IPAddress?) -> Bool {
        if allowedNetworks.isEmpty { return true }
        guard let address else { return false }
        return allowedNetworks.contains { $0.contains(address) }
    }
}
