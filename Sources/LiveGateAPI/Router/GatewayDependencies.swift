import APNsClient
import LiveGateDomain

/// What the gateway's routes need, behind protocols so tests can assemble the same app.
package struct GatewayDependencies: Sendable {
    /// Throws when the database cannot answer (`GET /health`).
    package var checkDatabase: @Sendable () async throws -> Void
    package var tenancy: any TenancyRepository
    package var apiKeys: any APIKeyRepository
    package var tokens: any TokenRegistry
    /// What the SDK reports of activities on devices.
    package var deviceStates: any DeviceStateRepository
    /// Activities as API resources.
    package var activityRecords: any ActivityRecords
    package var pushToStartHealth: any PushToStartHealthRecords
    /// Users' custom attributes (`POST /users/track`).
    package var userAttributes: any UserAttributesStore
    /// Named audiences (`/segments`).
    package var segments: any SegmentStore
    /// Apps' ActivityAttributes types, which messages' payloads are checked against.
    package var activityTypes: any ActivityTypeStore
    package var dispatches: any DispatchStore
    package var activityLog: any ActivityLogRepository
    /// Shared by the message endpoints, and told to return unspent quota when the gateway stops.
    package var rateLimiter: RateLimiter
    /// `/users/track`'s own hourly limit, returned on stopping as `rateLimiter` is.
    package var usersTrackRateLimiter: RateLimiter
    /// Each app's per-minute `/push_token_tag` quota, shared with other gateways; told to return
    /// unspent quota when the gateway stops, as `rateLimiter` is.
    package var tokenTagRateLimiter: RateLimiter
    package var channels: any ChannelStore
    /// Made once per gateway; `ChannelManagerService` shuts it down when the gateway stops. Its clients
    /// start on first use, so a gateway that manages no channels starts no threads.
    package var channelManager: APNsChannelManager
    /// Dispatches as API resources (`GET`/`DELETE /messages/live_activity/dispatches/{id}`).
    package var dispatchRecords: any DispatchRecords
    /// This process's delivery engine, told of commits and of a `DELETE` here; nil when it delivers
    /// nothing.
    package var commits: (any DispatchCommitListener)?
    /// Webhook endpoints (`/webhooks`); nil: the routes are not served.
    package var webhooks: (any WebhookStore)?
    /// Tests set a fixed time to check payload timestamps exactly.
    package var clock: MessageClock = .system
    /// The events written, for `GET /events` and webhook senders; nil: none are read.
    package var events: (any EventLog)?
    /// Who subscribes to which events (nil: nothing is written).
    package var eventInterest: (any EventInterest)?
    /// Re-reads who subscribes, at once: after this gateway changes a webhook endpoint.
    package var reloadEventInterest: (@Sendable () async throws -> Void)?
    /// The one deadline each request's database calls share; nil: each call has its own.
    package var requestDeadline: (any RequestDeadline)?

    package init(
        checkDatabase: @escaping @Sendable () async throws -> Void, tenancy: any TenancyRepository, apiKeys: any APIKeyRepository,
        tokens: any TokenRegistry, deviceStates: any DeviceStateRepository, activityRecords: any ActivityRecords,
        pushToStartHealth: any PushToStartHealthRecords, userAttributes: any UserAttributesStore, segments: any SegmentStore,
        activityTypes: any ActivityTypeStore, dispatches: any DispatchStore, activityLog: any ActivityLogRepository,
        rateLimiter: RateLimiter, usersTrackRateLimiter: RateLimiter,
        tokenTagRateLimiter: RateLimiter, channels: any ChannelStore, channelManager: APNsChannelManager,
        dispatchRecords: any DispatchRecords, commits: (any DispatchCommitListener)? = nil, clock: MessageClock = .system
    ) {
        self.checkDatabase = checkDatabase
        self.tenancy = tenancy
        self.apiKeys = apiKeys
        self.tokens = tokens
        self.deviceStates = deviceStates
        self.activityRecords = activityRecords
        self.pushToStartHealth = pushToStartHealth
        self.userAttributes = userAttributes
        self.segments = segments
        self.activityTypes = activityTypes
        self.dispatches = dispatches
        self.activityLog = activityLog
        self.rateLimiter = rateLimiter
        self.usersTrackRateLimiter = usersTrackRateLimiter
        self.tokenTagRateLimiter = tokenTagRateLimiter
        self.channels = channels
        self.channelManager = channelManager
        self.dispatchRecords = dispatchRecords
        self.commits = commits
        self.clock = clock
    }
}
