import Logging
import PostgresClient
import ServiceLifecycle

/// Refreshes the dispatch backlog gauges every `interval` with one query, however often `/metrics` is
/// scraped: a scrape only reads what the last refresh found (at most `interval` old).
public struct DispatchBacklogService: Service {
    let backlog: PostgresDispatchBacklog
    let interval: Duration
    let logger: Logger

    public init(pool: PostgresConnectionPool, interval: Duration = .seconds(5), logger: Logger) {
        self.backlog = PostgresDispatchBacklog(pool: pool)
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        await repeatUntilShutdown(every: interval, logger: logger, failure: "could not read the dispatch backlog for /metrics") {
            GatewayMetrics.record(try await backlog.read())
        }
    }
}
