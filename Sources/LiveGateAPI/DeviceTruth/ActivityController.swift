import Foundation
import Hummingbird
import LiveGateDomain

/// `GET /live_activity/activities/{activity_id}?app_id=…`: one activity as a resource (`ActivityView`),
/// for a key with `live_activity.read`. An app of another workspace is answered exactly like an unknown
/// one, and an activity nothing is known of is a 200 with nothing in it: a tag exists once it is used.
package struct ActivityController: Sendable {
    let authenticator: APIKeyAuthenticator
    let apps: AppDirectory
    let records: any ActivityRecords

    package init(authenticator: APIKeyAuthenticator, apps: AppDirectory, records: any ActivityRecords) {
        self.authenticator = authenticator
        self.apps = apps
        self.records = records
    }

    package var routes: RouteCollection<LiveGateRequestContext> {
        let routes = RouteCollection(context: LiveGateRequestContext.self)
        routes.group("/live_activity/activities/:activity_id")
            .add(middleware: APIKeyMiddleware(authenticator: authenticator, permission: .liveActivityRead))
            .get(use: show)
        return routes
    }

    @Sendable func show(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        let query = try ActivityQuery.parse(request.uri.query)
        // The router matches the path as sent: an id with spaces, `/` or other letters comes percent-encoded.
        let encoded = context.parameters.get("activity_id") ?? ""
        let activityID = encoded.removingPercentEncoding ?? encoded
        let length = activityID.unicodeScalars.count
        guard (1...CommonMessageFields.maximumActivityIDLength).contains(length), !activityID.utf8.contains(0) else {
            throw APIError(
                .badRequest, "Invalid request: activity_id",
                errors: ["activity_id must be 1 to \(CommonMessageFields.maximumActivityIDLength) characters, without NUL"])
        }
        let app = try await apps.app(queried: query.appIdentifier, ofKeyIn: context)
        var view = try await records.activity(appID: app.id, activityID: activityID, after: query.cursor, limit: query.limit)
        view.priorityBudget = app.priorityBudget
        return BroadcastChannelController.json(.ok, ActivityJSON.object(view, appIdentifier: app.identifier))
    }
}
