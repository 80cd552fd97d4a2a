import Logging
import ServiceLifecycle

/// Runs `work` every `interval` until the service group shuts down gracefully: the loop of the
/// gateway's periodic services. A run that fails is logged as `failure` (a warning, with the error)
/// and the next one comes as usual.
func repeatUntilShutdown(
    every interval: Duration, logger: Logger, failure: Logger.Message, _ work: () async throws -> Void
) async {
    while !Task.isShuttingDownGracefully {
        do {
            try await work()
        } catch {
            logger.warning(failure, metadata: ["error": "\(error)"])
        }
        try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
    }
}
