import Hummingbird

/// Runs a request's work under one deadline for all the database calls it makes: however many it needs,
/// a database that hangs costs the request one deadline, not one per call. The store that knows the
/// database provides it (`GatewayDependencies.requestDeadline`).
package protocol RequestDeadline: Sendable {
    func run<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result
}

/// Puts every request under `GatewayDependencies.requestDeadline`.
struct RequestDeadlineMiddleware<Context: RequestContext>: RouterMiddleware {
    let deadline: any RequestDeadline

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await deadline.run { try await next(request, context) }
    }
}
