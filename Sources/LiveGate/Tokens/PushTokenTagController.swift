import Foundation
import Hummingbird
import Logging

/// `POST /push_token_tag`: where the SDK reports update and push-to-start tokens. There is no
/// REST key on a device; the `app_id` says which app, and its workspace owns the users made here. An app
/// that enforces SDK authentication wants a JWT for the `external_id` a call names; every call counts
/// against the abuse limits (`TokenTagLimits`), whose `X-RateLimit-*` headers every answer carries.
public struct PushTokenTagController: Sendable {
    let apps: AppDirectory
    let tokens: any TokenRegistry
    let limits: TokenTagLimits?
    let clock: MessageClock

    /// `limits` nil: no abuse limits.
    public init(
        apps: AppDirectory, tokens: any TokenRegistry, limits: TokenTagLimits? = nil, clock: MessageClock = .system
    ) {
        self.apps = apps
        self.tokens = tokens
        self.limits = limits
        self.clock = clock
    }

    public var routes: RouteCollection<LiveGateRequestContext> {
        let routes = RouteCollection(context: LiveGateRequestContext.self)
        routes.post("/push_token_tag", use: register)
        return routes
    }

    @Sendable func register(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        var shown: RateLimitDecision?
        do {
            if let decision = limits?.admit(address: context.clientAddress, now: clock.now()) {
                shown = decision
                guard decision.allowed else { throw TokenTagLimits.addressRefusal(decision) }
            }
            let body = try await JSONRequestBody.read(request, context: context)
            let tag = try PushTokenTagRequest.parse(body.object)
            guard let app = try await apps.app(identifier: tag.appID) else {
                throw APIError.unknownApp(tag.appID, inWorkspace: false)
            }
            if let externalID = tag.registration.externalID {
                try authorize(externalID: externalID, app: app, request: request, context: context)
            }
            if let decision = try await limits?.admit(app: app, now: clock.now()) {
                shown = .shown(shown, decision)
                guard decision.allowed else { throw TokenTagLimits.appRefusal(decision) }
            }
            try await tokens.apply(tag.registration, app: app)
            context.logger.debug(
                "push token registration applied",
                metadata: ["app_id": "\(app.identifier)", "removed": "\(tag.registration.token == nil)"])
            var response = MessageAcceptance.response(
                StoredResponse(status: 201, body: #"{"message":"success"}"#), replayed: false)
            if let shown { response.headers.append(contentsOf: shown.headers) }
            return response
        } catch {
            // The limits' headers ride on every answer once the call was counted, errors included;
            // failures that are not answers of ours (the database) go on as they are.
            guard let shown, error is APIError || error is any HTTPResponseError else { throw error }
            var answer = ErrorMiddleware.apiError(for: error, request: request, context: context, routes: nil)
            answer.headers.append(contentsOf: shown.headers)
            throw answer
        }
    }

    private func authorize(
        externalID: String, app: App, request: Request, context: LiveGateRequestContext
    ) throws(APIError) {
        do {
            try app.sdkAuthentication.authorize(
                externalID: externalID, authorization: request.headers[.authorization], now: clock.now())
        } catch {
            context.logger.info(
                "SDK authentication refused a registration",
                metadata: [
                    "app_id": "\(app.identifier)", "status": "\(error.status.code)",
                    "reason": "\(error.errors.first ?? error.message)",
                ])
            throw error
        }
    }
}
