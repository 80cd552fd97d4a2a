import NIOConcurrencyHelpers

/// Concurrent loads of the same key share one: the first caller's load runs, the others wait for its
/// result. Nothing is kept once it ends (a cache in front decides what is kept).
package final class SingleFlight<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let loads = NIOLockedValueBox([Key: Task<Value, any Error>]())

    func value(for key: Key, load: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let task = loads.withLockedValue { loads in
            if let running = loads[key] { return running }
            let task = Task { try await load() }
            loads[key] = task
            return task
        }
        defer { loads.withLockedValue { if $0[key] == task { $0[key] = nil } } }
        return try await task.value
    }
}
