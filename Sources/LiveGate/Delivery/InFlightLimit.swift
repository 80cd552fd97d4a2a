import NIOConcurrencyHelpers

/// A counting semaphore for async code: at most `limit` holders at once, the others wait in order.
final class InFlightLimit: Sendable {
    private struct State {
        var available: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// Waiters before this index were resumed; kept to make waking O(1), compacted now and then.
        var head = 0
    }

    private let state: NIOLockedValueBox<State>

    init(_ limit: Int) {
        precondition(limit > 0)
        state = NIOLockedValueBox(State(available: limit))
    }

    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLockedValue { state -> Bool in
                if state.available > 0 {
                    state.available -= 1
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    func release() {
        let next = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            guard state.head < state.waiters.count else {
                state.available += 1
                return nil
            }
            let waiter = state.waiters[state.head]
            state.head += 1
            if state.head == state.waiters.count || state.head >= 1024 {
                state.waiters.removeFirst(state.head)
                state.head = 0
            }
            return waiter
        }
        next?.resume()
    }

    func withPermit<Result: Sendable>(_ body: () async -> Result) async -> Result {
        await acquire()
        defer { release() }
        return await body()
    }
}
