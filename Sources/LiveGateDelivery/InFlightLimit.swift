import DequeModule
import LiveGateDomain
import NIOConcurrencyHelpers

/// A counting semaphore for async code: at most `limit` permits held at once; callers wait in order.
/// A caller may take several at once (a batch of pushes), never more than the limit.
final class InFlightLimit: Sendable {
    private struct Waiter {
        let count: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var available: Int
        var waiters = Deque<Waiter>()
    }

    let limit: Int
    private let state: NIOLockedValueBox<State>

    init(_ limit: Int) {
        precondition(limit > 0)
        self.limit = limit
        state = NIOLockedValueBox(State(available: limit))
    }

    func acquire(_ count: Int = 1) async {
        precondition(count > 0 && count <= limit, "cannot hold \(count) of \(limit) permits")
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLockedValue { state -> Bool in
                // First come, first served: nobody overtakes a waiter.
                if state.waiters.isEmpty, state.available >= count {
                    state.available -= count
                    return true
                }
                state.waiters.append(Waiter(count: count, continuation: continuation))
                return false
            }
            if granted { continuation.resume() }
        }
    }

    func release(_ count: Int = 1) {
        let ready = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.available += count
            var ready: [CheckedContinuation<Void, Never>] = []
            while let next = state.waiters.first, next.count <= state.available {
                _ = state.waiters.popFirst()
                state.available -= next.count
                ready.append(next.continuation)
            }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    func withPermits<Result: Sendable>(_ count: Int, _ body: () async -> Result) async -> Result {
        await acquire(count)
        defer { release(count) }
        return await body()
    }
}
