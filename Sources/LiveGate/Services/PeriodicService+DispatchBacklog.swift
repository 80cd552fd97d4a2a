import LiveGateAPI
import LiveGateDomain
import LiveGateStore
import Logging
import PostgresClient

extension PeriodicService {
    /// Refreshes the dispatch backlog gauges every `interval` with one query, however often `/metrics`
    /// is scraped: a scrape only reads what the last refresh found (at most `interval` old).
    package static func dispatchBacklog(pool: PostgresConnectionPool, interval: Duration = .seconds(5), logger: Logger) -> Self {
        let backlog = PostgresDispatchBacklog(pool: pool)
        return PeriodicService(every: interval, logger: logger, failure: "could not read the dispatch backlog for /metrics") {
            GatewayMetrics.record(try await backlog.read())
        }
    }
}
