import Foundation
import Hummingbird
import LiveGateDomain
import Logging

/// `POST /push_token_tag`: where the SDK reports update and push-to-start tokens, through the SDK's
/// gate (app, abuse limits, SDK authentication). An update token arriving under an activity id also
/// confirms the push-to-starts of that activity sent to the device.
package struct PushTokenTagController: Sendable {
    let gate: SDKCallGate
    let tokens: any TokenRegistry

    /// `limits` nil: no abuse limits. Share one `TokenTagLimits` with `DeviceStateController`: the SDK's
    /// routes count against the same limits.
    package init(
        apps: AppDirectory, tokens: any TokenRegistry, limits: TokenTagLimits? = nil, clock: MessageClock = .system
    ) {
        self.gate = SDKCallGate(apps: apps, limits: limits, clock: clock)
        self.tokens = tokens
    }

    package var routes: RouteCollection<LiveGateRequestContext> {
        let routes = RouteCollection(context: LiveGateRequestContext.self)
        routes.post("/push_token_tag", use: register)
        return routes
    }

    @Sendable func register(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        try await gate.handle(request, context: context, route: .pushTokenTag, parse: PushTokenTagRequest.parse) { tag, app in
            let confirmed = try await tokens.apply(tag.registration, app: app)
            GatewayMetrics.startsConfirmed(confirmed)
            context.logger.debug(
                "push token registration applied",
                metadata: [
                    "app_id": "\(app.identifier)", "removed": "\(tag.registration.token == nil)",
                    "starts_confirmed": "\(confirmed.count)",
                ])
        }
    }
}
