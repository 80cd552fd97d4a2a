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

/// The HTTP application `Gateway.build` puts together (without the services it runs beside it), plus
/// the probe routes, over a test's own database: for driving routes with `app.test(.router)`.
enum TestGateway {
    static func app(
        _ database: TestDatabase, configuration: GatewayConfiguration = .init(),
        clock: MessageClock = .system, logger: Logger = .quiet, doorbell: DeliveryDoorbell? = nil,
        stops: DispatchStopSignals? = nil, dispatchCommit: DispatchCommitSettings = .init(), handoff: DeliveryHandoff? = nil
    ) -> some ApplicationProtocol {
        let commits = doorbell.map { DeliveryCommits(doorbell: $0, stops: stops ?? DispatchStopSignals(), handoff: handoff) }
        var dependencies = GatewayDependencies.postgres(pool: database.pool, dispatchCommit: dispatchCommit, commits: commits)
        dependencies.clock = clock
        return buildApplication(
            configuration: configuration, dependencies: dependencies, logger: logger,
            extraRoutes: { router, authenticator in ProbeRoutes.add(to: router, authenticator: authenticator) })
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
