import APNsCore
import Foundation
import HTTPTypes
import Hummingbird
import LiveGateDomain
import Logging

/// `/live_activity/types`: an app's ActivityAttributes types as the app decodes them (permission
/// `live_activity.types`). `PUT /live_activity/types/{attributes_type}` registers or replaces one;
/// `GET /live_activity/types?app_id=` lists the app's, `GET …/{attributes_type}?app_id=` reads one and
/// `DELETE …/{attributes_type}?app_id=` removes one. Every update and start to an activity of the type is
/// then checked against it at the API.
package struct ActivityTypeController: Sendable {
    let authenticator: APIKeyAuthenticator
    let apps: AppDirectory
    let types: ActivityTypeDirectory

    package init(authenticator: APIKeyAuthenticator, apps: AppDirectory, types: ActivityTypeDirectory) {
        self.authenticator = authenticator
        self.apps = apps
        self.types = types
    }

    package var routes: RouteCollection<LiveGateRequestContext> {
        let routes = RouteCollection(context: LiveGateRequestContext.self)
        let managed = routes.group("/live_activity/types")
            .add(middleware: APIKeyMiddleware(authenticator: authenticator, permission: .activityTypes))
        managed.get(use: list)
        managed.put(":attributes_type", use: put)
        managed.get(":attributes_type", use: read)
        managed.delete(":attributes_type", use: delete)
        return routes
    }

    @Sendable func put(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        let name = try Self.name(context)
        let body = try await JSONRequestBody.read(request, context: context)
        let definition = try ActivityTypeRequest.parse(body.object)
        let app = try await apps.app(identifier: definition.appID, ofKeyIn: context)
        let type = ActivityType(
            appID: app.id, name: name, contentState: definition.contentState, attributes: definition.attributes,
            mode: definition.mode, updatedAt: Date())
        let created = try await types.store.put(type)
        types.forget(appID: app.id)
        context.logger.info(
            "activity type registered", metadata: ["app_id": "\(app.identifier)", "attributes_type": "\(name)", "mode": "\(type.mode)"])
        var answer = Self.json(type, app: app)
        answer.set("message", .string("success"))
        return BroadcastChannelController.json(created ? .created : .ok, answer)
    }

    @Sendable func list(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        let app = try await queriedApp(request, context: context)
        var answer = JSONObject()
        answer.set("types", .array(try await types.store.types(appID: app.id).map { .object(Self.json($0, app: app)) }))
        answer.set("message", .string("success"))
        return BroadcastChannelController.json(.ok, answer)
    }

    @Sendable func read(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        let name = try Self.name(context)
        let app = try await queriedApp(request, context: context)
        guard let type = try await types.store.types(appID: app.id).first(where: { $0.name == name }) else {
            throw Self.notFound(name)
        }
        var answer = Self.json(type, app: app)
        answer.set("message", .string("success"))
        return BroadcastChannelController.json(.ok, answer)
    }

    @Sendable func delete(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        let name = try Self.name(context)
        let app = try await queriedApp(request, context: context)
        guard try await types.store.delete(name: name, appID: app.id) else { throw Self.notFound(name) }
        types.forget(appID: app.id)
        context.logger.info("activity type removed", metadata: ["app_id": "\(app.identifier)", "attributes_type": "\(name)"])
        var answer = JSONObject()
        answer.set("message", .string("success"))
        return BroadcastChannelController.json(.ok, answer)
    }

    private func queriedApp(_ request: Request, context: LiveGateRequestContext) async throws -> App {
        var query = QueryParameters(request.uri.query, allowed: ["app_id"])
        let identifier = query.text("app_id", required: true)
        try query.throwIfAny()
        return try await apps.app(queried: identifier!, ofKeyIn: context)
    }

    static func name(_ context: LiveGateRequestContext) throws(APIError) -> String {
        let name = context.parameters.get("attributes_type") ?? ""
        guard !name.isEmpty, name.count <= 256 else {
            throw APIError(.badRequest, "Invalid request: attributes_type must be 1 to 256 characters")
        }
        return name
    }

    static func notFound(_ name: String) -> APIError {
        APIError(.notFound, "Not found", errors: ["the app has no activity type '\(name.prefix(256))'"])
    }

    static func json(_ type: ActivityType, app: App) -> JSONObject {
        var object = JSONObject()
        object.set("attributes_type", .string(type.name))
        object.set("app_id", .string(app.identifier))
        object.set("content_state", type.contentState.json)
        object.set("attributes", type.attributes?.json ?? .null)
        object.set("mode", .string(type.mode.rawValue))
        object.set("updated_at", .string(DispatchJSON.time(type.updatedAt)))
        return object
    }
}
