import APNsClient
import APNsCore
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import NIOConcurrencyHelpers
import TestSupport
import Testing

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
    func setUsersTrackRateLimit(workspaceID: UUID, perHour limit: Int) async throws -> Bool {
        try await base.setUsersTrackRateLimit(workspaceID: workspaceID, perHour: limit)
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
    func setPriorityBudget(appIdentifier: String, budget: PriorityBudget?) async throws -> App? {
        try await base.setPriorityBudget(appIdentifier: appIdentifier, budget: budget)
    }
    func setSDKAuthentication(appIdentifier: String, keys: [SDKAuthPublicKey]?, enforced: Bool) async throws -> App? {
        try await base.setSDKAuthentication(appIdentifier: appIdentifier, keys: keys, enforced: enforced)
    }
}

@Suite("Unknown app_ids: a flood of made-up ids costs a bounded number of queries; a new app is found at once", .requiresPostgres)
struct UnknownAppTests {
    @Test func aFloodOfMadeUpIdsCostsABoundedNumberOfQueries() async throws {
        try await TestDatabase.with { database async throws in
            let tenant = try await database.makeTenant()
            let repository = CountingTenancyRepository(base: database.tenancy)
            let directory = AppDirectory(
                repository: repository, cacheTimeToLive: .seconds(60), missLookupsPerSecond: 10,
                minimumReloadInterval: .milliseconds(200))
            let started = ContinuousClock.now
            try await withThrowingTaskGroup(of: App?.self) { group in
                for _ in 0..<500 {
                    group.addTask { try await directory.app(identifier: UUID().uuidString) }
                }
                for try await app in group { #expect(app == nil) }
            }
            // Ten lookups a second at most, and a snapshot per 200 ms at most, however long it took.
            let seconds = (ContinuousClock.now - started) / .seconds(1)
            let lookups = repository.lookups.withLockedValue { $0 }
            let snapshots = repository.snapshots.withLockedValue { $0 }
            #expect(lookups <= 10 * (Int(seconds) + 1), "\(lookups) lookups in \(seconds) s")
            #expect(snapshots <= 2 + Int(seconds / 0.2), "\(snapshots) snapshots in \(seconds) s")
            // A real app is still found (one lookup, then cached).
            let before = repository.lookups.withLockedValue { $0 }
            #expect(try await directory.app(identifier: tenant.app.identifier)?.id == tenant.app.id)
            #expect(try await directory.app(identifier: tenant.app.identifier)?.id == tenant.app.id)
            #expect(repository.lookups.withLockedValue { $0 } == before + 1)
        }
    }

    /// The snapshot predates the app; the app is found at once by its own lookup.
    @Test func aNewAppIsFoundAtOnce() async throws {
        try await TestDatabase.with { database async throws in
            let workspace = try await database.makeWorkspace()
            let repository = CountingTenancyRepository(base: database.tenancy)
            let directory = AppDirectory(repository: repository, cacheTimeToLive: .seconds(60))
            #expect(try await directory.app(identifier: "made-next") == nil)
            try await Self.createApp("made-next", in: workspace, database)
            #expect(try await directory.app(identifier: "made-next")?.name == "New")
            #expect(repository.snapshots.withLockedValue { $0 } == 1)
        }
    }

    /// With this second's lookups spent, a missing id waits for a snapshot loaded after it came, which
    /// finds the new app, instead of being refused.
    @Test func aNewAppIsFoundWhenNoLookupIsLeftThisSecond() async throws {
        try await TestDatabase.with { database async throws in
            let workspace = try await database.makeWorkspace()
            let repository = CountingTenancyRepository(base: database.tenancy)
            let directory = AppDirectory(
                repository: repository, cacheTimeToLive: .seconds(60), missLookupsPerSecond: 0,
                minimumReloadInterval: .milliseconds(100))
            #expect(try await directory.app(identifier: "made-next") == nil)
            try await Self.createApp("made-next", in: workspace, database)
            #expect(try await directory.app(identifier: "made-next")?.name == "New")
            #expect(repository.snapshots.withLockedValue { $0 } == 2)
            // Still unknown ids are refused by the newer snapshot without a lookup of their own.
            #expect(try await directory.app(identifier: "never-made") == nil)
            #expect(repository.snapshots.withLockedValue { $0 } == 3)
            #expect(repository.lookups.withLockedValue { $0 } == 1)
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

    static func createApp(_ identifier: String, in workspace: Workspace, _ database: TestDatabase) async throws {
        _ = try await database.tenancy.createApp(
            workspaceID: workspace.id, name: "New", identifier: identifier, bundleID: "com.example.new", endpoint: .sandbox,
            credentials: nil)
    }
}
