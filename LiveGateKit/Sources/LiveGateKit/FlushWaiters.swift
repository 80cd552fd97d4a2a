import Foundation

/// The callers waiting in `Outbox.flush()`, each with the number of tries begun before it called: a
/// failure to reach the gateway answers those whose wait saw that try fail (one in flight at the call
/// included; an older failure does not answer a newer call).
@available(iOS 16.0, macOS 13.0, *)
struct FlushWaiters {
    private var waiting: [UUID: (since: Int, continuation: CheckedContinuation<Bool, Never>)] = [:]

    mutating func add(_ id: UUID, since attempts: Int, _ continuation: CheckedContinuation<Bool, Never>) {
        waiting[id] = (attempts, continuation)
    }

    mutating func resume(_ id: UUID, _ flushed: Bool) {
        waiting.removeValue(forKey: id)?.continuation.resume(returning: flushed)
    }

    mutating func resumeAll(_ flushed: Bool) {
        let all = waiting
        waiting = [:]
        for waiter in all.values { waiter.continuation.resume(returning: flushed) }
    }

    /// Try `attempt` could not reach the gateway: callers waiting while it was made learn that reports wait.
    mutating func resumeUnreached(by attempt: Int) {
        for (id, waiter) in waiting where waiter.since <= attempt { resume(id, false) }
    }
}
