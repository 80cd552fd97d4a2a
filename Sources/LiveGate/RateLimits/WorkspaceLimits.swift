import Foundation

/// Each workspace's hourly limit, through the same short-lived cache as keys and apps: a changed limit
/// (`livegate workspace set-rate-limit`) is seen within that time.
public struct WorkspaceLimits: Sendable {
    let repository: any TenancyRepository
    private let cache: ExpiringCache<UUID, Int>

    public init(repository: any TenancyRepository, cacheTimeToLive: Duration = .zero) {
        self.repository = repository
        self.cache = ExpiringCache(timeToLive: cacheTimeToLive)
    }

    /// Nil when the workspace is gone.
    public func limit(for workspaceID: UUID) async throws -> Int? {
        try await cache.value(for: workspaceID) { try await repository.workspace(id: workspaceID)?.rateLimitPerHour }
    }
}
