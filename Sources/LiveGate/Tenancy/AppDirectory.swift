import NIOCore

/// Finds apps by their `app_id` for the API, through a short-lived cache: every message names its app,
/// and apps change rarely.
public struct AppDirectory: Sendable {
    let repository: any TenancyRepository
    private let cache: ExpiringCache<String, App>

    public init(repository: any TenancyRepository, cacheTimeToLive: TimeAmount = .zero) {
        self.repository = repository
        self.cache = ExpiringCache(timeToLive: cacheTimeToLive)
    }

    public func app(identifier: String) async throws -> App? {
        try await cache.value(for: identifier) { try await repository.app(identifier: identifier) }
    }
}
