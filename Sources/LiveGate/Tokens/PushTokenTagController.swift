import Foundation
import Hummingbird
import Logging

/// `POST /push_token_tag` (SPEC §6): where the SDK reports update and push-to-start tokens. There is no
/// REST key on a device; the `app_id` says which app, and its workspace owns the users made here. An app
/// that enforces SDK authentication wants a JWT for the `external_id` a call names.
public struct PushTokenTagController: Sendable {
    let apps: AppDirectory
    let tokens: any TokenRegistry
    let clock: MessageClock

    public init(apps: AppDirectory, tokens: any TokenRegistry, clock: MessageClock = .system) {
        self.apps = apps
        self.tokens = tokens
        self.clock = clock
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
        if let externalID = tag.registration.externalID {
            try authorize(externalID: externalID, app: app, request: request, context: context)
        }
        try await tokens.apply(tag.registration, app: app)
        context.logger.debug(
            "push token registration applied",
            metadata: ["app_id": "\(app.identifier)", "removed": "\(tag.registration.token == nil)"])
        return MessageAcceptance.response(StoredResponse(status: 201, body: #"{"message":"success"}"#), replayed: false)
    }

    private func authorize(externalID: String, app: App, request: Request, context: LiveGateRequestContext) throws(APIError) {
        do {
            try app.sdkAuthentication.authorize(
                externalID: externalID, authorization: request.headers[.authorization], now: clock.now())
        } catch {
            context.logger.info(
                "SDK authentication refused a registration",
                metadata: ["app_id": "\(app.identifier)", "status": "\(error.status.code)", "reason": "\(error.errors.first ?? error.message)"])
            throw error
        }
    }
}
