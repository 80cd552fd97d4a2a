import Foundation

/// Finds apps by their `app_id` for the API, through a short-lived cache: every message names its app,
/// and apps change rarely. Concurrent lookups of one identifier share a query, and identifiers missing
/// from a snapshot of every app's (`KnownAppIdentifiers`) cost a bounded number of queries a second, so
/// made-up ids do not cost a query each; an app is found as soon as it exists.
package struct AppDirectory: Sendable {
    let repository: any TenancyRepository
    private let cache: ExpiringCache<String, App>
    private let known: KnownAppIdentifiers
    private let lookups = SingleFlight<String, App?>()

    /// `cacheTimeToLive` zero: every lookup asks the database, and nothing is known to be unknown.
    /// `knownAppCapacity`: with more apps than this, no snapshot is kept (each unknown id is looked up).
    /// `missLookupsPerSecond` and `minimumReloadInterval`: what an identifier missing from the snapshot
    /// may cost, as `KnownAppIdentifiers` describes.
    package init(
        repository: any TenancyRepository, cacheTimeToLive: Duration = .zero, knownAppCapacity: Int = 100_000,
        missLookupsPerSecond: Int = 50, minimumReloadInterval: Duration = .seconds(1)
    ) {
        self.repository = repository
        self.cache = ExpiringCache(timeToLive: cacheTimeToLive)
        self.known = KnownAppIdentifiers(
            timeToLive: cacheTimeToLive, capacity: knownAppCapacity, missLookupsPerSecond: missLookupsPerSecond,
            minimumReloadInterval: minimumReloadInterval
        ) { try await repository.appIdentifiers(limit: $0) }
    }

    package func app(identifier: String) async throws -> App? {
        if let cached = cache.value(for: identifier) { return cached }
        if await known.answer(for: identifier) == .unknown { return nil }
        let repository = repository
        return try await cache.value(for: identifier) {
            try await lookups.value(for: identifier) { try await repository.app(identifier: identifier) }
        }
    }

    /// The app only if it belongs to `workspaceID`: another workspace's app is answered exactly like one
    /// that does not exist, so a key learns nothing about other tenants.
    package func app(identifier: String, inWorkspace workspaceID: UUID) async throws -> App? {
        try await app(identifier: identifier).flatMap { $0.workspaceID == workspaceID ? $0 : nil }
    }
}
