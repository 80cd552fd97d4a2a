import Foundation

/// Finds apps by their `app_id` for the API, through a short-lived cache: every message names its app,
/// and apps change rarely. Unknown identifiers are answered from a snapshot of every app's identifier
/// (`KnownAppIdentifiers`), so made-up ids do not cost a query each.
public struct AppDirectory: Sendable {
    let repository: any TenancyRepository
    private let cache: ExpiringCache<String, App>
    private let known: KnownAppIdentifiers

    /// `cacheTimeToLive` zero: every lookup asks the database, and nothing is known to be unknown.
    /// `knownAppCapacity`: with more apps than this, no snapshot is kept (each unknown id is looked up).
    public init(repository: any TenancyRepository, cacheTimeToLive: Duration = .zero, knownAppCapacity: Int = 100_000) {
        self.repository = repository
        self.cache = ExpiringCache(timeToLive: cacheTimeToLive)
        self.known = KnownAppIdentifiers(timeToLive: cacheTimeToLive, capacity: knownAppCapacity) {
            try await repository.appIdentifiers(limit: $0)
        }
    }

    public func app(identifier: String) async throws -> App? {
        if let cached = cache.value(for: identifier) { return cached }
        if await known.answer(for: identifier) == .unknown { return nil }
        return try await cache.value(for: identifier) { try await repository.app(identifier: identifier) }
    }

    /// The app only if it belongs to `workspaceID`: another workspace's app is answered exactly like one
    /// that does not exist, so a key learns nothing about other tenants.
    public func app(identifier: String, inWorkspace workspaceID: UUID) async throws -> App? {
        try await app(identifier: identifier).flatMap { $0.workspaceID == workspaceID ? $0 : nil }
    }
}
