import APNsCore
import Foundation
import HTTPTypes
import Hummingbird
import LiveGateDomain
import Logging

/// `/live_activity/priority_budget`: an app's hourly priority budget (permission
/// `live_activity.priority_budget`). `GET ?app_id=` reads it, `PUT` sets it or turns it off. Gateways
/// apply a change within their app cache's lifetime (`LIVEGATE_LOOKUP_CACHE_SECONDS`).
package struct PriorityBudgetController: Sendable {
    let authenticator: APIKeyAuthenticator
    let apps: AppDirectory
    /// Read and written directly: the directory's cached apps may be a few seconds old.
    let tenancy: any TenancyRepository

    package init(authenticator: APIKeyAuthenticator, apps: AppDirectory, tenancy: any TenancyRepository) {
        self.authenticator = authenticator
        self.apps = apps
        self.tenancy = tenancy
    }

    package var routes: RouteCollection<LiveGateRequestContext> {
        let routes = RouteCollection(context: LiveGateRequestContext.self)
        let managed = routes.group("/live_activity/priority_budget")
            .add(middleware: APIKeyMiddleware(authenticator: authenticator, permission: .priorityBudget))
        managed.get(use: read)
        managed.put(use: put)
        return routes
    }

    @Sendable func read(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        var query = QueryParameters(request.uri.query, allowed: ["app_id"])
        let identifier = query.text("app_id", required: true)
        try query.throwIfAny()
        let cached = try await apps.app(queried: identifier!, ofKeyIn: context)
        let app = try await tenancy.app(id: cached.id) ?? cached
        return BroadcastChannelController.json(.ok, Self.json(app.priorityBudget, app: app))
    }

    @Sendable func put(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        let body = try await JSONRequestBody.read(request, context: context)
        let change = try PriorityBudgetRequest.parse(body.object)
        let app = try await apps.app(identifier: change.appID, ofKeyIn: context)
        guard let updated = try await tenancy.setPriorityBudget(appIdentifier: app.identifier, budget: change.budget) else {
            throw APIError(.notFound, "Not found", errors: ["no app has app_id '\(change.appID.prefix(128))'"])
        }
        context.logger.info(
            "priority budget set",
            metadata: [
                "app_id": "\(app.identifier)", "per_hour": "\(change.budget.map { String($0.perHour) } ?? "off")",
                "frequent_per_hour": "\(change.budget?.frequentPerHour.map(String.init) ?? "-")",
            ])
        return BroadcastChannelController.json(.ok, Self.json(updated.priorityBudget, app: updated))
    }

    static func json(_ budget: PriorityBudget?, app: App) -> JSONObject {
        var object = JSONObject()
        object.set("app_id", .string(app.identifier))
        object.set("priority_budget_per_hour", budget.map { .number(String($0.perHour)) } ?? .null)
        object.set("frequent_priority_budget_per_hour", budget?.frequentPerHour.map { .number(String($0)) } ?? .null)
        object.set("message", .string("success"))
        return object
    }
}
