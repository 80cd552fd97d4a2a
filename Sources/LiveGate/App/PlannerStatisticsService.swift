import Logging
import PostgresClient
import ServiceLifecycle

/// Runs `PlannerStatistics.refresh` every `interval`, so a fast-growing dispatch table never runs
/// long on plans made for an empty one.
public struct PlannerStatisticsService: Service {
    let statistics: PlannerStatistics
    let interval: Duration
    let logger: Logger

    public init(pool: PostgresConnectionPool, interval: Duration = .seconds(1), logger: Logger) {
        self.statistics = PlannerStatistics(pool: pool)
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        await repeatUntilShutdown(every: interval, logger: logger, failure: "refreshing planner statistics failed") {
            let analyzed = try await statistics.refresh()
            if !analyzed.isEmpty {
                logger.debug("planner statistics refreshed", metadata: ["tables": "\(analyzed.joined(separator: ","))"])
            }
        }
    }
}
