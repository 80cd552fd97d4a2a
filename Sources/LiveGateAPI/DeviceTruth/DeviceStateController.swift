import Foundation
import Hummingbird
import LiveGateDomain
import Logging

/// `POST /live_activity/device_state`: the SDK reports an activity's state on the device (ActivityKit's
/// `activityState`, and the channel it follows), through the same gate as `/push_token_tag`. Reports are
/// ordered by the device's own time: an older one arriving late is answered 201 and changes nothing.
package struct DeviceStateController: Sendable {
    let gate: SDKCallGate
    let states: any DeviceStateRepository

    /// `limits`: the same instance `PushTokenTagController` counts against.
    package init(
        apps: AppDirectory, states: any DeviceStateRepository, limits: TokenTagLimits? = nil, clock: MessageClock = .system
    ) {
        self.gate = SDKCallGate(apps: apps, limits: limits, clock: clock)
        self.states = states
    }

    package var routes: RouteCollection<LiveGateRequestContext> {
        let routes = RouteCollection(context: LiveGateRequestContext.self)
        routes.post("/live_activity/device_state", use: report)
        return routes
    }

    @Sendable func report(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        try await gate.handle(request, context: context, route: .deviceState, parse: DeviceStateReport.parse) { report, app in
            let outcome = try await states.report(report, app: app)
            GatewayMetrics.deviceStateReported(report.state)
            GatewayMetrics.startsConfirmed(outcome.confirmedStarts)
            context.logger.debug(
                "device state report received",
                metadata: [
                    "app_id": "\(app.identifier)", "state": "\(report.state.rawValue)", "applied": "\(outcome.applied)",
                    "starts_confirmed": "\(outcome.confirmedStarts.count)",
                ])
        }
    }
}
