import NIOConcurrencyHelpers

/// A small thread-safe map whose entries expire after a fixed time, so the hot path can skip the
/// database for things that rarely change (API keys, apps) at the price of that much delay in seeing a
/// change. When full it is simply emptied: entries are cheap to load again.
package final class ExpiringCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        let value: Value
        let expiresAt: ContinuousClock.Instant
    }

    let timeToLive: Duration
    let capacity: Int
    private let entries = NIOLockedValueBox([Key: Entry]())

    package init(timeToLive: Duration, capacity: Int = 10_000) {
        self.timeToLive = timeToLive
        self.capacity = capacity
    }

    var isEnabled: Bool { timeToLive > .zero }

    func value(for key: Key, now: ContinuousClock.Instant = .now) -> Value? {
        guard isEnabled else { return nil }
        return entries.withLockedValue { entries in
            guard let entry = entries[key] else { return nil }
            if entry.expiresAt <= now {
                entries[key] = nil
                return nil
            }
            return entry.value
        }
    }

    func store(_ value: Value, for key: Key, now: ContinuousClock.Instant = .now) {
        guard isEnabled else { return }
        entries.withLockedValue { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(value: value, expiresAt: now + timeToLive)
        }
    }

    func remove(_ key: Key) {
        entries.withLockedValue { _ = $0.removeValue(forKey: key) }
    }

    /// Loads through the cache: a hit costs no round trip; nil results are not kept.
    package func value(for key: Key, load: () async throws -> Value?) async rethrows -> Value? {
        if let cached = value(for: key) { return cached }
        let loaded = try await load()
        if let loaded { store(loaded, for: key) }
        return loaded
    }
}
