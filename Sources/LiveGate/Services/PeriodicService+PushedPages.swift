import LiveGateStore
import Logging
import PostgresClient

extension PeriodicService {
    /// Prunes pushed pages every `interval`: an activity updated often keeps about one fan-out's pages,
    /// not one per update.
    package static func pushedPagesPruning(pool: PostgresConnectionPool, interval: Duration = .seconds(15), logger: Logger) -> Self {
        let pages = PushedPages(pool: pool)
        return PeriodicService(every: interval, logger: logger, failure: "pruning pushed pages failed") {
            let deleted = try await pages.prune()
            if deleted > 0 { logger.debug("pushed pages pruned", metadata: ["pages": "\(deleted)"]) }
        }
    }
}
