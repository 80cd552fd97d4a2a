import LiveGateAPI
import LiveGateDomain
import LiveGateStore
import Logging
import PostgresClient

extension PeriodicService {
    /// Runs `PlannerStatistics.refresh` every `interval`, so a fast-growing dispatch table never runs
    /// long on plans made for an empty one.
    package static func plannerStatistics(pool: PostgresConnectionPool, interval: Duration = .seconds(1), logger: Logger) -> Self {
        let statistics = PlannerStatistics(pool: pool)
        return PeriodicService(every: interval, logger: logger, failure: "refreshing planner statistics failed") {
            let analyzed = try await statistics.refresh()
            if !analyzed.isEmpty {
                logger.debug("planner statistics refreshed", metadata: ["tables": "\(analyzed.joined(separator: ","))"])
            }
        }
    }
}
