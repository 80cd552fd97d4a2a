import LiveGateAPI
import LiveGateDomain
import LiveGateStore
import Logging
import PostgresClient

extension PeriodicService {
    /// Checks finished push-to-starts for devices that never confirmed them (`UnconfirmedStarts`), every
    /// tenth of the confirmation window (between 1 and 30 seconds).
    package static func unconfirmedStarts(
        pool: PostgresConnectionPool, after window: Duration, events: (any EventInterest)? = nil, logger: Logger
    ) -> Self {
        let check = UnconfirmedStarts(pool: pool, after: window, events: events)
        let interval = min(max(window / 10, .seconds(1)), .seconds(30))
        return PeriodicService(every: interval, logger: logger, failure: "checking start confirmations failed") {
            let checked = try await check.check()
            if checked.starts > 0 {
                logger.debug(
                    "start confirmations checked",
                    metadata: ["starts": "\(checked.starts)", "unconfirmed_devices": "\(checked.unconfirmedDevices)"])
            }
        }
    }
}
