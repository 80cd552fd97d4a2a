/// Lets a few administrative statements run at once. Swift Testing starts every test together, and
/// a few hundred simultaneous `CREATE DATABASE`s on two cores made PostgreSQL slow enough that other
/// tests' connections ran out of time.
actor AdminStatementGate {
    static let shared = AdminStatementGate(limit: 4)

    private let limit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) {
        self.limit = limit
    }

    func run<Result: Sendable>(_ body: @Sendable () async throws -> Result) async throws -> Result {
        await enter()
        defer { leave() }
        return try await body()
    }

    private func enter() async {
        if running < limit {
            running += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func leave() {
        if waiting.isEmpty {
            running -= 1
        } else {
            // The slot passes straight to the next waiter, so `running` stays the same.
            waiting.removeFirst().resume()
        }
    }
}
