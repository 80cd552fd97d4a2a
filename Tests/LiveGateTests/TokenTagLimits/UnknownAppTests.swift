import APNsClient
import Foundation
import LiveGate
import NIOConcurrencyHelpers
import Testing
import TestSupport

/// The real PostgreSQL repository, counting the lookups the directory makes through it.
struct CountingTenancyRepository: TenancyRepository {
    let base: PostgresTenancyRepository
    let lookups = NIOLockedValueBox(0)
    let snapshots = NIOLockedValueBox(0)

    func app(identifier: String) async throws -> App? {
        lookups.withLockedValue { $0 += 1 }
        return try await base.app(identifier: identifier)
    }

    func appIdentifiers(limit: Int) async throws -> Set<String>? {
        snapshots.withLockedValue { $0 += 1 }
        return try await base.appIdentifiers(limit: limit)
    }

    func createWorkspace(name: String, rateLimitPerHour: Int) async throws -> Workspace {
        try await base.createWorkspace(name: name, rateLimitPerHour: rateLimitPerHour)
    }
    func workspace(id: UUID) async throws -> Workspace? { try await base.workspace(id: id) }
    func setRateLimit(workspaceID: UUID, rateLimitPerHour: Int) async throws -> Bool {
        try await base.setRateLimit(workspaceID: workspaceID, rateLimitPerHour: rateLimitPerHour)
    }
    func createApp(
        workspaceID: UUID, name: String, identifier: String?, bundleID: String, endpoint: APNsEndpoint,
        channelsEndpointURL: String?, credentials: APNsCredentials?
    ) async throws -> App {
        try await base.createApp(
            workspaceID: workspaceID, name: name, identifier: identifier, bundleID: bundleID, endpoint: endpoint,
            channelsEndpointURL: channelsEndpointURL, credentials: credentials)
    }
    func app(id: UUID) async throws -> App? { try await base.app(id: id) }
    func setChannelsEndpoint(appIdentifier: String, url: String?) async throws -> App? {
        try await base.setChannelsEndpoint(appIdentifier: appIdentifier, url: url)
    }
    func setSDKAuthentication(appIdentifier: String, keys: [SDKAuthPublicKey]?, enforced: Bool) async throws -> App? {
        try await base.setSDKAuthentication(appIdentifier: appIdentifier, keys: keys, enforced: enforced)
    }
}

@Suite("Unknown app_ids: a flood of made-up ids costs no query each")
struct UnknownAppTests {
    @Test func aFloodOfMadeUpIdsCostsOneSnapshotNotAQueryEach() async throws {
        try await TestDatabase.with { database async throws in
            let tenant = try await database.makeTenant()
            let repository = CountingTenancyRepository(base: database.tenancy)
            let directory = AppDirectory(repository: repository, cacheTimeToLive: .seconds(60))
            try await withThrowingTaskGroup(of: App?.self) { group in
                for _ in 0..<500 {
                    group.addTask { try await directory.app(identifier: UUID().uuidString) }
                }
                for try await app in group { #expect(app == nil) }
            }
            // One snapshot, loaded once for all of them; not one lookup.
            #expect(repository.snapshots.withLockedValue { $0 } == 1)
            #expect(repository.lookups.withLockedValue { $0 } == 0)
            // A real app is still found (one lookup, then cached).
            #expect(try await directory.app(identifier: tenant.app.identifier)?.id == tenant.app.id)
            #expect(try await directory.app(identifier: tenant.app.identifier)?.id == tenant.app.id)
            #expect(repository.lookups.withLockedValue { $0 } == 1)
            #expect(repository.snapshots.withLockedValue { $0 } == 1)
        }
    }

    @Test func aNewAppIsFoundOnceTheSnapshotExpires() async throws {
        try await TestDatabase.with { database async throws in
            let workspace = try await database.makeWorkspace()
            let repository = CountingTenancyRepository(base: database.tenancy)
            // Long enough that creating the app surely takes less, even on a busy machine.
            let directory = AppDirectory(repository: repository, cacheTimeToLive: .seconds(5))
            #expect(try await directory.app(identifier: "made-next") == nil)
            _ = try await database.tenancy.createApp(
                workspaceID: workspace.id, name: "New", identifier: "made-next", bundleID: "com.example.new", endpoint: .sandbox,
                credentials: nil)
            // Believed unknown while the snapshot that predates it is fresh...
            #expect(try await directory.app(identifier: "made-next") == nil)
            try await Task.sleep(for: .milliseconds(5100))
            // ...and found once it is not.
            #expect(try await directory.app(identifier: "made-next")?.name == "New")
        }
    }

    @Test func withoutACacheEveryLookupAsks() async throws {
        try await TestDatabase.with { database async throws in
            let repository = CountingTenancyRepository(base: database.tenancy)
            let directory = AppDirectory(repository: repository, cacheTimeToLive: .zero)
            for _ in 0..<3 {
                let app = try await directory.app(identifier: "nope")
                #expect(app == nil)
            }
            #expect(repository.lookups.withLockedValue { $0 } == 3)
            #expect(repository.snapshots.withLockedValue { $0 } == 0)
        }
    }

    @Test func withMoreAppsThanTheSnapshotHoldsUnknownIdsAreLookedUp() async throws {
        try await TestDatabase.with { database async throws in
            let workspace = try await database.makeWorkspace()
            for _ in 0..<3 { _ = try await database.makeApp(in: workspace) }
            let repository = CountingTenancyRepository(base: database.tenancy)
            let directory = AppDirectory(repository: repository, cacheTimeToLive: .seconds(60), knownAppCapacity: 2)
            for _ in 0..<4 {
                let app = try await directory.app(identifier: UUID().uuidString)
                #expect(app == nil)
            }
            #expect(repository.lookups.withLockedValue { $0 } == 4)
            // One load found too many apps; it is not tried again until the time to live passes.
            #expect(repository.snapshots.withLockedValue { $0 } == 1)
        }
    }
}
