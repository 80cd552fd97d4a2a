import APNsCore
import Foundation

/// Checks messages' payloads against the types of their activities, through short-lived caches: an
/// app's types (every gateway sees a change within `cacheTimeToLive`) and the types an activity's
/// devices reported. An app without types costs one cache lookup per message, and no query while
/// cached.
package final class ActivityTypeDirectory: Sendable {
    private struct ActivityKey: Hashable, Sendable {
        let appID: UUID
        let activityID: String
    }

    package let store: any ActivityTypeStore
    private let appTypes: ExpiringCache<UUID, [String: ActivityType]>
    private let activityTypes: ExpiringCache<ActivityKey, [String]>
    private let appLookups = SingleFlight<UUID, [String: ActivityType]>()
    private let activityLookups = SingleFlight<ActivityKey, [String]>()
    /// Activities whose warn-mode mismatch this process logged this hour (`noteWarnings`).
    let loggedThisHour = ExpiringCache<String, Bool>(timeToLive: .seconds(3600))

    /// `cacheTimeToLive` zero: every message reads the types from the store.
    package init(store: any ActivityTypeStore, cacheTimeToLive: Duration) {
        self.store = store
        self.appTypes = ExpiringCache(timeToLive: cacheTimeToLive)
        self.activityTypes = ExpiringCache(timeToLive: cacheTimeToLive)
    }

    /// The app's types, by name.
    package func types(of appID: UUID) async throws -> [String: ActivityType] {
        let store = store
        return try await appTypes.value(for: appID) {
            try await appLookups.value(for: appID) {
                Dictionary(try await store.types(appID: appID).map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
            }
        } ?? [:]
    }

    /// An update's `content_state`, against the type of each kind of device the activity has: what the
    /// devices reported with their tokens, or the type that started the activity.
    package func checkUpdate(_ contentState: JSONObject, appID: UUID, activityID: String) async throws -> PayloadVerdict {
        var verdict = PayloadVerdict(contentState: contentState)
        let types = try await types(of: appID)
        guard !types.isEmpty else { return verdict }
        let key = ActivityKey(appID: appID, activityID: activityID)
        let store = store
        let names =
            try await activityTypes.value(for: key) {
                try await activityLookups.value(for: key) { try await store.typesOfActivity(appID: appID, activityID: activityID) }
            } ?? []
        for name in names.sorted() {
            if let type = types[name] { verdict.check(against: type) }
        }
        return verdict
    }

    /// A start's `content_state` and `activity_attributes`, against the type it names.
    package func checkStart(
        _ contentState: JSONObject, attributes: JSONObject?, attributesType: String, appID: UUID
    ) async throws -> PayloadVerdict {
        var verdict = PayloadVerdict(contentState: contentState, attributes: attributes)
        if let type = try await types(of: appID)[attributesType] { verdict.check(against: type) }
        return verdict
    }

    /// Forgets what is cached of the app's types, after this gateway changed them: its own next
    /// message sees the change at once (other gateways within `cacheTimeToLive`).
    package func forget(appID: UUID) {
        appTypes.remove(appID)
    }
}
