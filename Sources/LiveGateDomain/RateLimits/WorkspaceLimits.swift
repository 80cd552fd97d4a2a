import Foundation

/// Each workspace's hourly limit of one kind, through the same short-lived cache as keys and apps: a
/// changed limit (`livegate workspace set-rate-limit`) is seen within that time.
package struct WorkspaceLimits: Sendable {
    /// Which of a workspace's hourly limits.
    package enum Kind: Sendable {
        /// Shared by the message endpoints (`start`, `update`).
        case messages
        /// `/users/track`'s own.
        case usersTrack

        /// What a 429 names as limited.
        package var endpoints: String {
            switch self {
            case .messages: "the message endpoints"
            case .usersTrack: "/users/track"
            }
        }
    }

    let repository: any TenancyRepository
    package let kind: Kind
    private let cache: ExpiringCache<UUID, Int>

    package init(repository: any TenancyRepository, kind: Kind = .messages, cacheTimeToLive: Duration = .zero) {
        self.repository = repository
        self.kind = kind
        self.cache = ExpiringCache(timeToLive: cacheTimeToLive)
    }

    /// Nil when the workspace is gone.
    package func limit(for workspaceID: UUID) async throws -> Int? {
        let kind = kind
        return try await cache.value(for: workspaceID) {
            guard let workspace = try await repository.workspace(id: workspaceID) else { return nil }
            switch kind {
            case .messages: return workspace.rateLimitPerHour
            case .usersTrack: return workspace.usersTrackRateLimitPerHour
            }
        }
    }
}
