import Foundation
import Hummingbird
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import Logging
import NIOCore
import ServiceLifecycle

/// Serves the real gateway on a real socket (port chosen by the kernel) for the length of `body`,
/// for tests that need a TCP peer address: IP allowlists, IPv6.
package enum LiveGatewayServer {
    package static func with<Result: Sendable>(
        database: TestDatabase,
        host: String = "127.0.0.1",
        configuration: GatewayConfiguration = GatewayConfiguration(),
        _ body: @Sendable (_ baseURL: String) async throws -> Result
    ) async throws -> Result {
        var configuration = configuration
        configuration.host = host
        configuration.port = 0
        let (portStream, portContinuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "test.gateway")
        logger.logLevel = .warning
        let app = buildApplication(
            configuration: configuration, dependencies: database.dependencies, logger: logger,
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            })
        let serviceGroup = ServiceGroup(configuration: .init(services: [app], logger: logger))
        return try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask {
                try await serviceGroup.run()
                return nil
            }
            var iterator = portStream.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else {
                await serviceGroup.triggerGracefulShutdown()
                throw CurlHTTPClient.Failure(description: "the gateway did not start")
            }
            let bracketed = host.contains(":") ? "[\(host)]" : host
            do {
                let result = try await body("http://\(bracketed):\(port)")
                await serviceGroup.triggerGracefulShutdown()
                try await group.waitForAll()
                return result
            } catch {
                await serviceGroup.triggerGracefulShutdown()
                try? await group.waitForAll()
                throw error
            }
        }
    }
}
