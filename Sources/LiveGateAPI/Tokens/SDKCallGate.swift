import APNsCore
import Foundation
import Hummingbird
import LiveGateDomain
import Logging

/// One of the routes the SDK calls, with how its limit refusal words what the app did too often.
struct SDKRoute: Sendable {
    let path: String
    /// "register at most 600000 push tokens", for the app limit's 429.
    let calls: @Sendable (Int) -> String

    static let pushTokenTag = SDKRoute(path: "/push_token_tag") { "register at most \($0) push tokens" }
    static let deviceState = SDKRoute(path: "/live_activity/device_state") { "report at most \($0) activity states" }
}

/// A validated SDK call: which app, and the user it speaks for when it names one.
protocol SDKCall {
    var appID: String { get }
    var externalID: String? { get }
}

/// What every call the SDK makes goes through: there is no REST key on a device, so the `app_id` says
/// which app; the abuse limits (`TokenTagLimits`, shared by the SDK's routes) count it, and an app that
/// enforces SDK authentication wants a JWT for the `external_id` a call names. Every answer, errors
/// included, carries the limits' `X-RateLimit-*` headers once the call was counted.
struct SDKCallGate: Sendable {
    let apps: AppDirectory
    let limits: TokenTagLimits?
    let clock: MessageClock

    /// Reads the body with `parse`, admits the call, then runs `apply` and answers 201 `{"message":"success"}`.
    func handle<Call: SDKCall>(
        _ request: Request, context: LiveGateRequestContext, route: SDKRoute,
        parse: (JSONObject) throws(APIError) -> Call, apply: (Call, App) async throws -> Void
    ) async throws -> Response {
        var shown: RateLimitDecision?
        do {
            if let decision = limits?.admit(address: context.clientAddress, now: clock.now()) {
                shown = decision
                guard decision.allowed else { throw TokenTagLimits.addressRefusal(decision, route: route) }
            }
            let body = try await JSONRequestBody.read(request, context: context)
            let call = try parse(body.object)
            guard let app = try await apps.app(identifier: call.appID) else {
                throw APIError.unknownApp(call.appID, inWorkspace: false)
            }
            if let externalID = call.externalID {
                try authorize(externalID: externalID, app: app, route: route, request: request, context: context)
            }
            if let decision = try await limits?.admit(app: app, now: clock.now()) {
                shown = .shown(shown, decision)
                guard decision.allowed else { throw TokenTagLimits.appRefusal(decision, route: route) }
            }
            try await apply(call, app)
            var response = MessageAcceptance.response(StoredResponse(status: 201, body: #"{"message":"success"}"#), replayed: false)
            if let shown { response.headers.append(contentsOf: shown.headers) }
            return response
        } catch {
            // Failures that are not answers of ours (the database) go on as they are.
            guard let shown, error is APIError || error is any HTTPResponseError else { throw error }
            var answer = ErrorMiddleware.apiError(for: error, request: request, context: context, routes: nil)
            answer.headers.append(contentsOf: shown.headers)
            throw answer
        }
    }

    private func authorize(
        externalID: String, app: App, route: SDKRoute, request: Request, context: LiveGateRequestContext
    ) throws(APIError) {
        do {
            try app.sdkAuthentication.authorize(
                externalID: externalID, authorization: request.headers[.authorization], now: clock.now())
        } catch {
            context.logger.info(
                "SDK authentication refused a call",
                metadata: [
                    "app_id": "\(app.identifier)", "route": "\(route.path)", "status": "\(error.status.code)",
                    "reason": "\(error.errors.first ?? error.message)",
                ])
            throw error
        }
    }
}
