import LiveGateAPI
import LiveGateDomain
import LiveGateStore
import Logging
import ServiceLifecycle

/// A service that runs `work` every `interval` until the gateway shuts down gracefully; a run that fails
/// is logged as `failure` (a warning, with the error) and the next one comes as usual.
package struct PeriodicService: Service {
    let interval: Duration
    let logger: Logger
    let failure: Logger.Message
    let work: @Sendable () async throws -> Void

    package init(every interval: Duration, logger: Logger, failure: Logger.Message, work: @escaping @Sendable () async throws -> Void) {
        self.interval = interval
        self.logger = logger
        self.failure = failure
        self.work = work
    }

    package func run() async throws {
        while !Task.isShuttingDownGracefully {
            do {
                try await work()
            } catch {
                logger.warning(failure, metadata: ["error": "\(error)"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }
}
