import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import Logging
import PostgresClient
import ServiceLifecycle

/// Runs `Housekeeping` every `interval`: stale update tokens retired, the activity log and
/// finished dispatches kept for the retention period (60 hours by default), past quota
/// windows and expired `Idempotency-Key` answers deleted, ended activities' broadcast channels deleted
/// at APNs once their retention is over.
package struct HousekeepingService: Service {
    let housekeeping: Housekeeping
    let tokenLifetime: Duration
    let retention: Duration
    let eventRetention: Duration
    let interval: Duration
    /// Nil: channels are left alone (a gateway that manages none).
    let channels: EndedChannelDeletion?
    let logger: Logger

    package init(
        pool: PostgresConnectionPool, tokenLifetime: Duration, logSettings: ActivityLogSettings,
        eventRetention: Duration = .seconds(7 * 86_400), interval: Duration = .seconds(600), channels: EndedChannelDeletion? = nil,
        events: (any EventInterest)? = nil, logger: Logger
    ) {
        self.housekeeping = Housekeeping(pool: pool, events: events)
        self.tokenLifetime = tokenLifetime
        self.retention = logSettings.retention
        self.eventRetention = eventRetention
        self.interval = interval
        self.channels = channels
        self.logger = logger
    }

    package func run() async throws {
        while !Task.isShuttingDownGracefully {
            do {
                let report = try await housekeeping.run(
                    tokenLifetime: tokenLifetime, retention: retention, eventRetention: eventRetention)
                if report != .init() {
                    logger.debug(
                        "housekeeping",
                        metadata: [
                            "retired_tokens": "\(report.retiredTokens)", "log_entries": "\(report.logEntries)",
                            "log_hours": "\(report.logHours)", "payload_mismatches": "\(report.payloadMismatches)",
                            "dispatches": "\(report.dispatches)", "pushed_pages": "\(report.pushedPages)",
                            "rate_limit_windows": "\(report.rateLimitWindows)",
                            "token_tag_windows": "\(report.tokenTagWindows)",
                            "idempotency_keys": "\(report.idempotencyKeys)",
                        ])
                }
            } catch {
                logger.warning("housekeeping failed", metadata: ["error": "\(error)"])
            }
            do {
                if let deleted = try await channels?.run(), deleted > 0 {
                    logger.debug("housekeeping", metadata: ["ended_channels": "\(deleted)"])
                }
            } catch {
                logger.warning("deleting ended broadcast channels failed", metadata: ["error": "\(error)"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }
}
