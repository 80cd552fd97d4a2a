import APNsClient
import LiveGateAPI
import LiveGateDomain
import LiveGateStore
import PostgresClient

extension GatewayDependencies {
    /// The PostgreSQL-backed repositories over one pool; `commits` (this process's delivery engine) hears
    /// of every dispatch committed, superseded or cancelled here. `reads` (a standby's pool, falling back
    /// to `pool`) serves the read-only routes: the message activity log, the activity and dispatch resources.
    package static func postgres(
        pool: PostgresConnectionPool, reads: PostgresConnectionPool? = nil, dispatchCommit: DispatchCommitSettings = .init(),
        commits: (any DispatchCommitListener)? = nil, channelManager: APNsChannelManager = APNsChannelManager(),
        events: PostgresEventInterest? = nil
    ) -> GatewayDependencies {
        var dependencies = GatewayDependencies(
            checkDatabase: { _ = try await pool.query("SELECT 1") },
            tenancy: PostgresTenancyRepository(pool: pool), apiKeys: PostgresAPIKeyRepository(pool: pool),
            tokens: PostgresTokenRegistry(pool: pool, events: events), deviceStates: PostgresDeviceStates(pool: pool, events: events),
            activityRecords: PostgresActivityRecords(pool: reads ?? pool), pushToStartHealth: PostgresPushToStartHealth(pool: pool),
            userAttributes: PostgresUserAttributes(pool: pool), segments: PostgresSegmentStore(pool: pool),
            activityTypes: PostgresActivityTypeStore(pool: pool),
            dispatches: PostgresDispatchStore(pool: pool, commitSettings: dispatchCommit, listener: commits, events: events),
            activityLog: PostgresActivityLog(pool: reads ?? pool), rateLimiter: RateLimiter(store: PostgresQuotaStore(pool: pool)),
            usersTrackRateLimiter: RateLimiter(store: PostgresQuotaStore(pool: pool, windows: .usersTrackHours)),
            tokenTagRateLimiter: RateLimiter(store: PostgresQuotaStore(pool: pool, windows: .appMinutes), windowSeconds: 60),
            channels: PostgresChannelStore(pool: pool), channelManager: channelManager,
            dispatchRecords: PostgresDispatchRecords(pool: pool), commits: commits)
        var records = PostgresDispatchRecords(pool: pool, reads: reads)
        records.events = events
        dependencies.dispatchRecords = records
        dependencies.events = PostgresEventLog(pool: pool)
        dependencies.eventInterest = events
        if let events {
            dependencies.reloadEventInterest = { @Sendable in try await events.reload() }
        }
        dependencies.webhooks = PostgresWebhookStore(pool: pool, interest: events)
        dependencies.requestDeadline = pool.configuration.callTimeout.map { PostgresRequestDeadline(timeout: $0) }
        return dependencies
    }
}
