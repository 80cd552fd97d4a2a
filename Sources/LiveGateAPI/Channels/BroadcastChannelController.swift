import APNsClient
import APNsCore
import Foundation
import HTTPTypes
import Hummingbird
import LiveGateDomain
import NIOCore

/// `POST /live_activity/channels` (create), `GET /live_activity/channels` (list) and
/// `POST /live_activity/channels/delete`: an app's broadcast channels, one per activity.
/// Another workspace's app is answered exactly like an unknown one.
package struct BroadcastChannelController: Sendable {
    static let defaultPageSize = 50
    static let maximumPageSize = 100

    let authenticator: APIKeyAuthenticator
    let apps: AppDirectory
    let store: any ChannelStore
    let manager: APNsChannelManager
    let limits: ChannelLimits

    package init(
        authenticator: APIKeyAuthenticator, apps: AppDirectory, store: any ChannelStore, manager: APNsChannelManager,
        limits: ChannelLimits
    ) {
        self.authenticator = authenticator
        self.apps = apps
        self.store = store
        self.manager = manager
        self.limits = limits
    }

    package var routes: RouteCollection<LiveGateRequestContext> {
        let routes = RouteCollection(context: LiveGateRequestContext.self)
        let channels = routes.group("/live_activity/channels")
            .add(middleware: APIKeyMiddleware(authenticator: authenticator, permission: .channelsManage))
        channels.post(use: create)
        channels.get(use: list)
        channels.post("delete", use: delete)
        return routes
    }

    @Sendable func create(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        let asked = try ChannelRequest.parse(try await JSONRequestBody.read(request, context: context).object, takesPolicy: true)
        let app = try await apps.app(identifier: asked.appID, ofKeyIn: context)
        guard let destination = app.channelDestination else { throw Self.noSigningKey(app) }
        let deadline = ContinuousClock.now + limits.waitForOtherCreate
        while true {
            switch try await store.claim(
                app: app, activityID: asked.activityID, policy: asked.policy, limit: limits.channelsPerApp,
                abandonedAfter: limits.abandonedClaimAge)
            {
            case .existing(let channel):
                return Self.answer(.ok, channel.channelID, activityID: asked.activityID)
            case .limitReached(let limit):
                throw APIError(
                    .badRequest, "Invalid request: channel limit reached",
                    errors: ["app '\(app.identifier)' already has \(limit) broadcast channels, the most it may have: delete one first"])
            case .beingCreated:
                // Another request (perhaps another gateway) is asking APNs: wait for its answer.
                guard ContinuousClock.now < deadline else {
                    throw APIError(
                        .conflict, "Channel being created", errors: ["another request is creating this activity's channel: try again"])
                }
                try await Task.sleep(for: .milliseconds(25))
            case .claimed(let rowID):
                return try await createAtAPNs(rowID: rowID, asked: asked, app: app, destination: destination)
            }
        }
    }

    private func createAtAPNs(rowID: Int64, asked: ChannelRequest, app: App, destination: APNsDestination) async throws -> Response {
        let result = await manager.create(ChannelSettings(messageStoragePolicy: asked.policy), for: destination)
        guard case .answered(let answer) = result, answer.status == 201, let channelID = answer.channelID else {
            let failure = ChannelManagementFailure(result, action: "create", activityID: asked.activityID)
            try await store.abandon(rowID: rowID, app: app, logging: failure.logEntry)
            throw failure.error
        }
        guard try await store.complete(rowID: rowID, channelID: channelID) != nil else {
            // The claim was taken over meanwhile: do not leave an orphan at APNs.
            _ = await manager.delete(channelID, for: destination)
            throw APIError(.conflict, "Channel being created", errors: ["another request took over this activity's channel: try again"])
        }
        return Self.answer(.created, channelID, activityID: asked.activityID)
    }

    @Sendable func list(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        var parameters = QueryParameters(request.uri.query, allowed: ["app_id", "limit", "cursor"])
        let appID = parameters.text("app_id", required: true)
        let limit = parameters.limit(default: Self.defaultPageSize, maximum: Self.maximumPageSize)
        let cursor = parameters.cursor()
        try parameters.throwIfAny()
        let app = try await apps.app(identifier: appID!, ofKeyIn: context)
        let rows = try await store.list(app: app, after: cursor, limit: limit)
        let page = rows.prefix(limit)
        var body = JSONObject()
        body.set("channels", .array(page.map(Self.json)))
        body.set("message", .string("success"))
        body.set(
            "next_cursor",
            rows.count > limit
                ? page.last.map { .string(KeysetCursor(microseconds: $0.createdAtMicroseconds, id: $0.id).token) } ?? .null : .null)
        return Self.json(.ok, body)
    }

    @Sendable func delete(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        let asked = try ChannelRequest.parse(try await JSONRequestBody.read(request, context: context).object, takesPolicy: false)
        let app = try await apps.app(identifier: asked.appID, ofKeyIn: context)
        guard let destination = app.channelDestination else { throw Self.noSigningKey(app) }
        guard let channel = try await store.channel(app: app, activityID: asked.activityID), let channelID = channel.channelID else {
            throw APIError(
                .notFound, "Channel not found",
                errors: ["activity '\(asked.activityID)' of app '\(app.identifier)' has no broadcast channel"])
        }
        let result = await manager.delete(channelID, for: destination)
        guard result.channelIsDeleted else {
            let failure = ChannelManagementFailure(result, action: "delete", activityID: asked.activityID)
            try await store.log(failure.logEntry, app: app)
            throw failure.error
        }
        _ = try await store.delete(rowID: channel.id)
        return Self.answer(.ok, channelID, activityID: asked.activityID)
    }

    static func noSigningKey(_ app: App) -> APIError {
        APIError(
            .badRequest, "No push credential",
            errors: ["app '\(app.identifier)' has no APNs signing key: broadcast channels are managed with it"])
    }

    static func answer(_ status: HTTPResponse.Status, _ channelID: ChannelID?, activityID: String) -> Response {
        var body = JSONObject()
        body.set("message", .string("success"))
        body.set("channel_id", channelID.map { .string($0.rawValue) } ?? .null)
        body.set("activity_id", .string(activityID))
        return json(status, body)
    }

    static func json(_ channel: BroadcastChannel) -> JSONValue {
        var object = JSONObject()
        object.set("channel_id", channel.channelID.map { .string($0.rawValue) } ?? .null)
        object.set("activity_id", .string(channel.activityID))
        object.set("message_storage_policy", .integer(channel.messageStoragePolicy.rawValue))
        object.set("state", .string(channel.state.rawValue))
        object.set("created_at", .string(ActivityLogJSON.time(microseconds: channel.createdAtMicroseconds)))
        return .object(object)
    }

    static func json(_ status: HTTPResponse.Status, _ body: JSONObject) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: JSONValue.object(body).serialized())))
    }
}
