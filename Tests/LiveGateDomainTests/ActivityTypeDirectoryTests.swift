import APNsCore
import Foundation
import LiveGateDomain
import Synchronization
import Testing

/// The API checks every update through `ActivityTypeDirectory`: an app's types and an activity's are
/// read from the store once per cache time, whatever the rate of updates, and an app without types
/// costs nothing more.
@Suite("The activity type directory")
struct ActivityTypeDirectoryTests {
    final class CountingStore: ActivityTypeStore {
        let reads = Mutex((types: 0, activities: 0))
        let type: ActivityType?

        init(type: ActivityType?) { self.type = type }

        func put(_ type: ActivityType) async throws -> Bool { true }
        func types(appID: UUID) async throws -> [ActivityType] {
            reads.withLock { $0.types += 1 }
            return type.map { [$0] } ?? []
        }
        func delete(name: String, appID: UUID) async throws -> Bool { false }
        func typesOfActivity(appID: UUID, activityID: String) async throws -> [String] {
            reads.withLock { $0.activities += 1 }
            return ["Score"]
        }
        func recordMismatch(_ entry: ActivityLogEntry, workspaceID: UUID, appID: UUID) async throws -> Bool { true }
    }

    static let appID = UUID()

    static func score() throws -> ActivityType {
        let schema = try PayloadSchema(
            parsing: try JSONValue.parse(#"{"type":"object","properties":{"home":{"type":"integer"}},"required":["home"]}"#),
            at: "content_state")
        return ActivityType(appID: appID, name: "Score", contentState: schema, attributes: nil, mode: .enforce, updatedAt: Date())
    }

    @Test func typesAreReadOncePerCacheTimeWhateverTheUpdates() async throws {
        let store = CountingStore(type: try Self.score())
        let directory = ActivityTypeDirectory(store: store, cacheTimeToLive: .seconds(60))
        for index in 0..<200 {
            let verdict = try await directory.checkUpdate(
                try #require(try JSONValue.parse(#"{"home":\#(index)}"#).objectValue), appID: Self.appID, activityID: "match-\(index % 10)")
            #expect(verdict.refusals.isEmpty)
        }
        let refused = try await directory.checkUpdate(
            try #require(try JSONValue.parse(#"{"home":"1"}"#).objectValue), appID: Self.appID, activityID: "match-1")
        #expect(refused.refusals.map(\.description) == [#"$.content_state.home: expected integer, got string "1""#])
        let reads = store.reads.withLock { $0 }
        #expect(reads.types == 1)
        #expect(reads.activities == 10, "one read per activity")
    }

    @Test func anAppWithoutTypesNeverAsksWhichTypeAnActivityHas() async throws {
        let store = CountingStore(type: nil)
        let directory = ActivityTypeDirectory(store: store, cacheTimeToLive: .seconds(60))
        for index in 0..<50 {
            _ = try await directory.checkUpdate(
                try #require(try JSONValue.parse(#"{"home":"x"}"#).objectValue), appID: Self.appID, activityID: "match-\(index)")
        }
        let reads = store.reads.withLock { $0 }
        #expect(reads.types == 1)
        #expect(reads.activities == 0)
    }

    @Test func aChangeOnThisGatewayIsSeenAtOnce() async throws {
        let store = CountingStore(type: try Self.score())
        let directory = ActivityTypeDirectory(store: store, cacheTimeToLive: .seconds(60))
        _ = try await directory.types(of: Self.appID)
        directory.forget(appID: Self.appID)
        _ = try await directory.types(of: Self.appID)
        #expect(store.reads.withLock { $0.types } == 2)
    }
}
