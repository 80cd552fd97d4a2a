import Foundation
import Hummingbird
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import Logging
import NIOCore
import TestSupport

/// The gateway as `Gateway.parts` wires it for `livegate serve`, over a test's own database: for
/// driving its routes with `app.test(.router)` (its services are not run), plus the probe routes.
enum TestGateway {
    /// What `livegate serve` would read from an environment naming only the test's database (and, for
    /// a simulator over TLS, its certificate), with delivery off unless `delivery`.
    static func settings(_ database: TestDatabase, trustedCAFile: String? = nil, delivery: Bool = false) -> GatewaySettings {
        var environment = ["DATABASE_URL": database.connectionString, "LIVEGATE_DELIVERY": delivery ? "on" : "off"]
        environment["LIVEGATE_APNS_CA_FILE"] = trustedCAFile
        // Only a setting out of range throws, and these are the defaults.
        return try! GatewaySettings(SettingsReader(environment))
    }

    /// The HTTP application; `configuration` replaces the settings' HTTP side as a test needs it.
    static func app(
        _ database: TestDatabase, configuration: GatewayConfiguration = .init(), clock: MessageClock = .system,
        logger: Logger = .quiet
    ) -> some ApplicationProtocol {
        var settings = settings(database)
        settings.http = configuration
        let parts = Gateway.parts(settings: settings, pool: database.pool, metricsRegistry: nil, logger: logger, clock: clock)
        return app(parts)
    }

    /// The HTTP application of parts a test assembled itself (with delivery, for instance).
    static func app(_ parts: GatewayParts) -> some ApplicationProtocol {
        parts.application(
            services: false, extraRoutes: { router, authenticator in ProbeRoutes.add(to: router, authenticator: authenticator) })
    }
}
extension TestResponse {
    var text: String { String(buffer: body) }
    /// The `X-Request-Id` the gateway answered with.
    var requestID: String? { headers[.init("X-Request-Id")!] }
}

extension HTTPFields {
    static func bearer(_ key: String) -> HTTPFields {
        [.authorization: "Bearer \(key)"]
    }

    static let json: HTTPFields = [.contentType: "application/json"]

    func merging(_ other: HTTPFields) -> HTTPFields {
        var merged = self
        merged.append(contentsOf: other)
        return merged
    }
}
