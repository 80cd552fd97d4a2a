import LiveGateAPI
import PostgresClient

/// A request's database calls share the pool's call timeout, counted from the request's start.
struct PostgresRequestDeadline: RequestDeadline {
    let timeout: Duration

    func run<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        try await PostgresDeadline.$current.withValue(.now + timeout) { try await body() }
    }
}
