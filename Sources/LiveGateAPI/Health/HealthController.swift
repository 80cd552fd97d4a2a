import Hummingbird
import LiveGateDomain
import Logging

/// `GET /healthz`: 200 only when the database answers (`checkDatabase` returns), so a load balancer stops
/// sending traffic to an instance that cannot record dispatches; otherwise the same 503 (with
/// `Retry-After`) the API answers.
package struct HealthController: Sendable {
    let checkDatabase: @Sendable () async throws -> Void

    package init(checkDatabase: @escaping @Sendable () async throws -> Void) {
        self.checkDatabase = checkDatabase
    }

    package var routes: RouteCollection<LiveGateRequestContext> {
        let routes = RouteCollection(context: LiveGateRequestContext.self)
        routes.get("/healthz", use: health)
        return routes
    }

    struct Health: ResponseEncodable {
        let status: String
        let database: String
    }

    @Sendable func health(_ request: Request, context: LiveGateRequestContext) async throws -> Health {
        do {
            try await checkDatabase()
            return Health(status: "ok", database: "ok")
        } catch {
            context.logger.warning("health check: database unavailable", metadata: ["error": "\(error)"])
            throw APIError.databaseUnavailable
        }
    }
}
