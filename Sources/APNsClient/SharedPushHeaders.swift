import APNsCore
import Synchronization

/// The headers every push of one dispatch shares (provider token, push type, topic, priority,
/// expiration, content type), built once as `SharedHeaderLines` and reused for each of its devices.
/// Only `apns-id` differs per push. A few hundred sets are kept; when full, the cache starts over.
final class SharedPushHeaders: Sendable {
    private struct Key: Hashable {
        let token: String
        let bundleID: String
        let priority: APNsPriority
        let expiration: Int64
    }

    private static let capacity = 512
    private let cache = Mutex([Key: SharedHeaderLines]())

    func lines(token: ProviderToken, bundleID: String, priority: APNsPriority, expiration: Int64) -> SharedHeaderLines {
        let key = Key(token: token.value, bundleID: bundleID, priority: priority, expiration: expiration)
        return cache.withLock { cache in
            if let lines = cache[key] { return lines }
            if cache.count >= Self.capacity { cache.removeAll(keepingCapacity: true) }
            let headers = LiveActivityPushHeaders(bundleID: bundleID, priority: priority, expiration: expiration, apnsID: "")
            let lines = SharedHeaderLines(
                [("authorization", "bearer " + token.value)] + headers.sharedFields)
            cache[key] = lines
            return lines
        }
    }
}
