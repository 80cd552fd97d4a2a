import APNsCore
import Foundation
import LiveGateDomain
import NIOConcurrencyHelpers
import PostgresClient

/// Activities read from the tokens, the state reports, the channel and the dispatches of one tag. A page
/// of devices is two keyset reads (tokens, reports) merged by device id; the counts are one query over
/// both, kept `largeCountsTimeToLive` for an activity of `largeActivity` devices or more, so reading the
/// pages of a huge audience does not count it again for every page.
package struct PostgresActivityRecords: ActivityRecords {
    static let largeActivity = 10_000
    static let largeCountsTimeToLive: Duration = .seconds(10)
    static let recentDispatches = 20

    let pool: PostgresConnectionPool
    private let countsCache = NIOLockedValueBox<[CountsKey: (counts: ActivityDeviceCounts, until: ContinuousClock.Instant)]>([:])

    package init(pool: PostgresConnectionPool) {
        self.pool = pool
    }

    private struct CountsKey: Hashable {
        let appID: UUID
        let activityID: String
    }

    /// How many of an activity's warn-mode mismatches its resource shows (one per hour at most).
    static let recentMismatches = 10

    package func activity(appID: UUID, activityID: String, after: DeviceCursor?, limit: Int) async throws -> ActivityView {
        let cached = cachedCounts(CountsKey(appID: appID, activityID: activityID))
        let view = try await pool.withConnection { connection in
            let channel = try Self.channel(appID: appID, activityID: activityID, on: connection)
            let counts =
                try cached
                ?? Self.counts(appID: appID, activityID: activityID, channel: channel?.id.rawValue, on: connection)
            let (devices, more) = try Self.devices(
                appID: appID, activityID: activityID, after: after?.afterDeviceID ?? "", limit: limit, on: connection)
            let dispatches = try connection.query(
                """
                \(PostgresDispatchRecords.columns)
                FROM dispatches d
                \(PostgresDispatchRecords.confirmationJoin)
                WHERE d.app_id = $1 AND d.activity_id = $2
                ORDER BY d.completed_at DESC NULLS FIRST
                LIMIT $3
                """,
                [appID, activityID, Self.recentDispatches]
            ).map(PostgresDispatchRecords.record(from:))
            var marked = devices
            for index in marked.indices {
                marked[index].channelMember =
                    channel != nil && marked[index].channelID == channel?.id.rawValue && marked[index].state?.isShown == true
            }
            var view = ActivityView(
                activityID: activityID, counts: counts, channel: channel, devices: marked,
                nextCursor: more ? devices.last.map { DeviceCursor(afterDeviceID: $0.deviceID) } : nil, dispatches: dispatches)
            view.attributesTypes = try connection.query(
                """
                SELECT DISTINCT attributes_type FROM activity_tokens
                WHERE app_id = $1 AND activity_id = $2 AND attributes_type IS NOT NULL ORDER BY attributes_type
                """,
                [appID, activityID]
            ).map { try $0.require("attributes_type") }
            view.mismatches = try connection.query(
                """
                SELECT hour, message, dispatch_id FROM activity_payload_mismatches
                WHERE app_id = $1 AND activity_id = $2 ORDER BY hour DESC LIMIT $3
                """,
                [appID, activityID, Self.recentMismatches]
            ).map { row in
                PayloadMismatchRecord(
                    hour: try row.require("hour"), message: try row.require("message"), dispatchID: try row.decode("dispatch_id"))
            }
            view.priorityHours = try connection.query(
                """
                SELECT hour, sent_high, lowered, throttled FROM activity_priority_hours
                WHERE app_id = $1 AND activity_id = $2 AND hour > now() - interval '1 day' ORDER BY hour DESC
                """,
                [appID, activityID]
            ).map { row in
                ActivityPriorityHour(
                    hour: try row.require("hour"), sentAtPriority10: try row.require("sent_high"), lowered: try row.require("lowered"),
                    throttled: try row.require("throttled"))
            }
            return view
        }
        if cached == nil, view.counts.devices >= Self.largeActivity {
            countsCache.withLockedValue { cache in
                let now = ContinuousClock.now
                if cache.count >= 1_000 { cache = cache.filter { $0.value.until > now } }
                cache[CountsKey(appID: appID, activityID: activityID)] = (view.counts, now + Self.largeCountsTimeToLive)
            }
        }
        return view
    }

    private func cachedCounts(_ key: CountsKey) -> ActivityDeviceCounts? {
        countsCache.withLockedValue { cache in
            guard let entry = cache[key], entry.until > .now else { return nil }
            return entry.counts
        }
    }

    static func channel(appID: UUID, activityID: String, on connection: PostgresConnection) throws -> ActivityChannel? {
        try connection.query(
            // A channel being created has no id yet: there is nothing to show or follow until APNs gives one.
            """
            SELECT channel_id, state FROM broadcast_channels
            WHERE app_id = $1 AND activity_id = $2 AND channel_id IS NOT NULL
            """,
            [appID, activityID]
        ).first.map { ActivityChannel(id: ChannelID(rawValue: try $0.require("channel_id")), state: try $0.require("state")) }
    }

    /// One statement: tokens and reports joined by device (a merge of two index scans in device order).
    static func counts(
        appID: UUID, activityID: String, channel: String?, on connection: PostgresConnection
    ) throws
        -> ActivityDeviceCounts
    {
        let row = try connection.query(
            """
            SELECT count(*)::int AS devices, count(t.device_id)::int AS with_token,
                   count(*) FILTER (WHERE s.state = 'active')::int AS active,
                   count(*) FILTER (WHERE s.state = 'stale')::int AS stale,
                   count(*) FILTER (WHERE s.state = 'ended')::int AS ended,
                   count(*) FILTER (WHERE s.state = 'dismissed')::int AS dismissed,
                   count(*) FILTER (WHERE s.device_id IS NULL)::int AS unreported,
                   count(*) FILTER (WHERE s.channel_id = $3 AND s.state IN ('active', 'stale'))::int AS channel_members
            FROM (SELECT device_id FROM activity_tokens WHERE app_id = $1 AND activity_id = $2) t
            FULL JOIN (SELECT device_id, state, channel_id FROM activity_device_states WHERE app_id = $1 AND activity_id = $2) s
                ON s.device_id = t.device_id
            """,
            [appID, activityID, channel])[0]
        var counts = ActivityDeviceCounts()
        counts.devices = try row.require("devices")
        counts.withToken = try row.require("with_token")
        for state in ActivityDeviceState.allCases { counts.byState[state] = try row.require(state.rawValue) }
        counts.unreported = try row.require("unreported")
        counts.channelMembers = try row.require("channel_members")
        return counts
    }

    /// The first `limit` devices after `after` among those with a token or a report: the first `limit + 1`
    /// of each (two index scans), merged in the database's own order of text, so the cursor's `>` and the
    /// page agree whatever the collation; one more than asked tells whether more follow.
    static func devices(
        appID: UUID, activityID: String, after: String, limit: Int, on connection: PostgresConnection
    ) throws
        -> (devices: [ActivityDevice], more: Bool)
    {
        let rows = try connection.query(
            """
            WITH page AS (
                SELECT device_id FROM (
                    (SELECT device_id FROM activity_tokens
                     WHERE app_id = $1 AND activity_id = $2 AND device_id > $3 ORDER BY device_id LIMIT $4)
                    UNION
                    (SELECT device_id FROM activity_device_states
                     WHERE app_id = $1 AND activity_id = $2 AND device_id > $3 ORDER BY device_id LIMIT $4)
                ) ids
                ORDER BY device_id LIMIT $4
            )
            SELECT p.device_id, t.push_token, t.created_at, t.updated_at, \(PushedPageStatements.lastPushColumns),
                   u.external_id, s.state, s.channel_id, s.reported_at, s.frequent_pushes_enabled
            FROM page p
            LEFT JOIN activity_tokens t ON t.app_id = $1 AND t.activity_id = $2 AND t.device_id = p.device_id
            \(PushedPageStatements.newestPage(app: "$1", activity: "$2"))
            LEFT JOIN users u ON u.id = t.user_id
            LEFT JOIN activity_device_states s ON s.app_id = $1 AND s.activity_id = $2 AND s.device_id = p.device_id
            ORDER BY p.device_id
            """,
            [appID, activityID, after, limit + 1])
        let devices = try rows.map { row in
            var device = ActivityDevice(deviceID: try row.require("device_id"))
            device.externalID = try row.decode("external_id")
            device.maskedToken = try row.decode("push_token", as: String.self).map { String($0.suffix(8)) }
            if let registered: Date = try row.decode("created_at"), let updated: Date = try row.decode("updated_at") {
                device.registeredAt = registered
                device.rotatedAt = updated > registered ? updated : nil
            }
            if let dispatch: UUID = try row.decode("last_dispatch_id"), let status: Int = try row.decode("last_apns_status"),
                let at: Date = try row.decode("last_pushed_at")
            {
                device.lastPush = ActivityDevice.LastPush(dispatchID: dispatch, apnsStatus: status, at: at)
            }
            device.state = try row.decode("state", as: String.self).flatMap(ActivityDeviceState.init(rawValue:))
            device.stateReportedAt = try row.decode("reported_at")
            device.channelID = try row.decode("channel_id")
            device.frequentPushesEnabled = try row.decode("frequent_pushes_enabled")
            return device
        }
        return (Array(devices.prefix(limit)), devices.count > limit)
    }
}
