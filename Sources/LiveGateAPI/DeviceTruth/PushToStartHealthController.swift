import APNsCore
import Foundation
import Hummingbird
import LiveGateDomain

/// `GET /live_activity/push_to_start_tokens?app_id=…&activity_attributes_type=…`: the health of an app's
/// push-to-start tokens of one type (`PushToStartHealth`), for a key with `live_activity.read`. An app
/// of another workspace is answered exactly like an unknown one.
package struct PushToStartHealthController: Sendable {
    let authenticator: APIKeyAuthenticator
    let apps: AppDirectory
    let records: any PushToStartHealthRecords

    package init(authenticator: APIKeyAuthenticator, apps: AppDirectory, records: any PushToStartHealthRecords) {
        self.authenticator = authenticator
        self.apps = apps
        self.records = records
    }

    package var routes: RouteCollection<LiveGateRequestContext> {
        let routes = RouteCollection(context: LiveGateRequestContext.self)
        routes.group("/live_activity/push_to_start_tokens")
            .add(middleware: APIKeyMiddleware(authenticator: authenticator, permission: .liveActivityRead))
            .get(use: show)
        return routes
    }

    @Sendable func show(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        var parameters = QueryParameters(request.uri.query, allowed: ["app_id", "activity_attributes_type"])
        let appIdentifier = parameters.text("app_id", required: true)
        let attributesType = parameters.text("activity_attributes_type", required: true)
        try parameters.throwIfAny()
        // Both are there: a missing one is a problem `throwIfAny` answered.
        let app = try await apps.app(queried: appIdentifier!, ofKeyIn: context)
        let health = try await records.health(appID: app.id, attributesType: attributesType!)
        return BroadcastChannelController.json(.ok, Self.object(health, app: app.identifier, attributesType: attributesType!))
    }

    static func object(_ health: PushToStartHealth, app: String, attributesType: String) -> JSONObject {
        var object = JSONObject()
        object.set("message", .string("success"))
        object.set("app_id", .string(app))
        object.set("activity_attributes_type", .string(attributesType))
        object.set("tokens", .integer(health.tokens))
        var age = JSONObject()
        age.set("day", .integer(health.withinDay))
        age.set("week", .integer(health.withinWeek))
        age.set("month", .integer(health.withinMonth))
        age.set("older", .integer(health.older))
        object.set("by_age", .object(age))
        object.set("removed_by_apns_last_24h", .integer(health.removedLastDay))
        var starts = JSONObject()
        starts.set("starts", .integer(health.startsLastDay))
        starts.set("sent", .integer(health.sentLastDay))
        starts.set("confirmed", .integer(health.confirmedLastDay))
        starts.set("confirmation_rate", health.confirmationRate.map { .number(String(format: "%.4f", $0)) } ?? .null)
        object.set("starts_last_24h", .object(starts))
        return object
    }
}
