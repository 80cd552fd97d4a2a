import Foundation
import Hummingbird
import Logging

/// `POST /push_token_tag` (SPEC §6): where the SDK reports update and push-to-start tokens. There is no
/// REST key on a device; the `app_id` says which app, and its workspace owns the users made here.
public struct PushTokenTagController: Sendable {
    let apps: AppDirectory
    let tokens: any TokenRegistry

    public init(apps: AppDirectory, tokens: any TokenRegistry) {
        self.apps = apps
        self.tokens = tokens
    }

    public var routes: RouteCollection<LiveGateRequestContext> {
        let routes = RouteCollection(context: LiveGateRequestContext.self)
        routes.post("/push_token_tag", use: register)
        return routes
    }

    @Sendable func register(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        let body = try await JSONRequestBody.read(request, context: context)
        let tag = try PushTokenTagRequest.parse(body.object)
        guard let app = try await apps.app(identifier: tag.appID) else { throw APIError.unknownApp(tag.appID, inWorkspace: false) }
        try await tokens.apply(tag.registration, app: app)
        context.logger.debug(
            "push token registration applied",
            metadata: ["app_id": "\(app.identifier)", "removed": "\(tag.registration.token == nil)"])
        return MessageAcceptance.response(StoredResponse(status: 201, body: #"{"message":"success"}"#), replayed: false)
    }
}
