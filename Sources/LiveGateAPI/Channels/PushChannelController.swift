import APNsCore
import Foundation
import HTTPTypes
import Hummingbird
import LiveGateDomain
import NIOCore

/// `GET /push_channel?app_id=...&activity_id=...`: where the SDK looks up the channel an activity is
/// started on (`pushType: .channel(id)`). No REST key on a device, as for `/push_token_tag`: the
/// `app_id` says which app.
package struct PushChannelController: Sendable {
    let apps: AppDirectory
    let store: any ChannelStore

    package init(apps: AppDirectory, store: any ChannelStore) {
        self.apps = apps
        self.store = store
    }

    package var routes: RouteCollection<LiveGateRequestContext> {
        let routes = RouteCollection(context: LiveGateRequestContext.self)
        routes.get("/push_channel", use: lookUp)
        return routes
    }

    @Sendable func lookUp(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        var parameters = QueryParameters(request.uri.query, allowed: ["app_id", "activity_id"])
        let appID = parameters.text("app_id", required: true)
        let activityID = parameters.text("activity_id", required: true)
        try parameters.throwIfAny()
        guard let app = try await apps.app(identifier: appID!) else { throw APIError.unknownApp(appID!, inWorkspace: false) }
        // An ending channel still exists at APNs until housekeeping deletes it: devices may still join it.
        guard let channel = try await store.channel(app: app, activityID: activityID!),
            channel.state == .live || channel.state == .ending, let channelID = channel.channelID
        else {
            throw APIError(.notFound, "Channel not found", errors: ["activity '\(activityID!)' has no broadcast channel"])
        }
        var body = JSONObject()
        body.set("channel_id", .string(channelID.rawValue))
        return BroadcastChannelController.json(.ok, body)
    }
}
