import Foundation

/// Finds apps by their `app_id` for the API, through a short-lived cache: every message names its app,
/// and apps change rarely.
public struct AppDirectory: Sendable {
    let repository: any TenancyRepository
    private let cache: ExpiringCache<String, App>

    public init(repository: any TenancyRepository, cacheTimeToLive: Duration = .zero) {
        self.repository = repository
        self.cache = ExpiringCache(timeToLive: cacheTimeToLive)
    }

    public func app(identifier: String) async throws -> App? {
        try await cache.value(for: identifier) { try await repository.app(identifier: identifier) }
    }

    /// The app only if it belongs to `workspaceID`: another workspace's app is answered exactly like one
    /// that does not exist, so a key learns nothing about other tenants.
    public func app(identifier: String, inWorkspace workspaceID: UUID) async throws -> App? {
        try await app(identifier: identifier).flatMap { $0.workspaceID == workspaceID ? $0 : nil }
    }
}
