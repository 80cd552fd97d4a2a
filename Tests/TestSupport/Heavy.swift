import Synchronization
import Testing

/// For suites whose tests each start gateways, simulators, browsers or client libraries as processes,
/// or drive hundreds of pushes over many connections: at most `Heavy.slots` of their tests run at once,
/// whatever else the suite's run has going. Swift Testing starts every test together; on two cores,
/// a dozen gateways and simulators at once starve each other (and the tests beside them) of CPU, and
/// timeouts meant for a dead peer fire on a slow one.
///
/// `@Suite("…", .heavy)`: each of the suite's tests waits for a slot (its own time is counted from
/// when it has one) and frees it when it ends.
package struct Heavy: SuiteTrait, TestTrait, TestScoping {
    /// Two: a gateway and a simulator per test keep both cores busy; more only queue for them.
    static let slots = HeavySlots(count: 2)

    package var isRecursive: Bool { true }

    package func scopeProvider(for test: Test, testCase: Test.Case?) -> Heavy? {
        testCase == nil ? nil : self
    }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        await Self.slots.take()
        do {
            try await function()
        } catch {
            Self.slots.give()
            throw error
        }
        Self.slots.give()
    }
}

extension Trait where Self == Heavy {
    package static var heavy: Heavy { Heavy() }
}

/// A counting semaphore for tasks: `take` waits, without holding a thread, until a slot is free.
final class HeavySlots: Sendable {
    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    init(count: Int) {
        state = Mutex(State(free: count))
    }

    func take() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                guard state.free > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if granted { continuation.resume() }
        }
    }

    func give() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
