import Hummingbird
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import Logging
import NIOCore
import ServiceLifecycle

/// The gateway's parts as `Gateway.parts` wires them: the HTTP side, the repositories its routes use,
/// the delivery engine (nil when this process delivers nothing) and every service that runs beside the
/// server, the engine among them.
package struct GatewayParts: Sendable {
    package let configuration: GatewayConfiguration
    package let dependencies: GatewayDependencies
    package let engine: DeliveryEngine?
    /// How the engine hears of the store's commits (its doorbell, stop signals and handoff).
    package let commits: DeliveryCommits
    /// In the order they start; they stop in reverse.
    package let services: [any Service]
    package let logger: Logger

    /// The HTTP application with the services beside it, as `livegate serve` runs it. `extraRoutes`
    /// adds routes behind the same middleware (tests' probes); `services: false` leaves the services
    /// out, for driving the routes alone.
    package func application(
        services withServices: Bool = true,
        extraRoutes: (Router<LiveGateRequestContext>, APIKeyAuthenticator) -> Void = { _, _ in },
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        buildApplication(
            configuration: configuration, dependencies: dependencies, logger: logger, services: withServices ? services : [],
            extraRoutes: extraRoutes, onServerRunning: onServerRunning)
    }
}
