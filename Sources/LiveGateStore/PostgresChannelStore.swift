import APNsCore
import Foundation
import LiveGateDomain
import PostgresClient

/// Broadcast channels in `broadcast_channels`. Claims of one app are serialized by a transaction-scoped
/// advisory lock on the app, so the per-app limit holds across gateways; the unique (app, activity)
/// key makes a second channel for an activity impossible whatever the lock does.
package struct PostgresChannelStore: ChannelStore {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) {
        self.pool = pool
    }

    static let columns = """
        id, app_id, activity_id, state, channel_id, message_storage_policy::int AS policy, created_at,
        (extract(epoch FROM created_at) * 1000000)::bigint AS created_micros
        """

    package func claim(
        app: App, activityID: String, policy: MessageStoragePolicy, limit: Int, abandonedAfter: Duration
    ) async throws -> ChannelClaim {
        try await pool.transaction { connection in
            _ = try connection.query("SELECT pg_advisory_xact_lock(hashtextextended($1::text, 6))", [app.id])
            let found = try connection.query(
                """
                SELECT \(Self.columns), created_at < now() - make_interval(secs => $3) AS abandoned
                FROM broadcast_channels WHERE app_id = $1 AND activity_id = $2
                """, [app.id, activityID, abandonedAfter.inSeconds])
            if let row = found.first {
                let channel = try Self.channel(from: row)
                let abandoned: Bool = try row.require("abandoned")
                switch channel.state {
                case .live, .ending: return .existing(channel)
                case .creating where !abandoned: return .beingCreated
                case .creating, .gone:
                    _ = try connection.query("DELETE FROM broadcast_channels WHERE id = $1", [channel.id])
                }
            }
            let counted = try connection.query(
                "SELECT count(*)::int AS n FROM broadcast_channels WHERE app_id = $1 AND state <> 'gone'", [app.id])
            guard try counted[0].require("n", as: Int.self) < limit else { return .limitReached(limit: limit) }
            let inserted = try connection.query(
                """
                INSERT INTO broadcast_channels (app_id, activity_id, state, message_storage_policy)
                VALUES ($1, $2, 'creating', $3::smallint) RETURNING id
                """, [app.id, activityID, policy.rawValue])
            return .claimed(rowID: try inserted[0].require("id"))
        }
    }

    package func complete(rowID: Int64, channelID: ChannelID) async throws -> BroadcastChannel? {
        let rows = try await pool.query(
            """
            UPDATE broadcast_channels SET state = 'live', channel_id = $2
            WHERE id = $1 AND state = 'creating' RETURNING \(Self.columns)
            """, [rowID, channelID.rawValue])
        return try rows.first.map(Self.channel(from:))
    }

    package func abandon(rowID: Int64, app: App, logging entry: ActivityLogEntry) async throws {
        try await pool.transaction { connection in
            _ = try connection.query("DELETE FROM broadcast_channels WHERE id = $1 AND state = 'creating'", [rowID])
            try ActivityLogStatement.insert([entry], workspaceID: app.workspaceID, appID: app.id, on: connection)
        }
    }

    package func channel(app: App, activityID: String) async throws -> BroadcastChannel? {
        let rows = try await pool.query(
            "SELECT \(Self.columns) FROM broadcast_channels WHERE app_id = $1 AND activity_id = $2", [app.id, activityID])
        return try rows.first.map(Self.channel(from:))
    }

    package func delete(rowID: Int64) async throws -> Bool {
        try await pool.query("DELETE FROM broadcast_channels WHERE id = $1", [rowID]).affectedRowCount == 1
    }

    package func list(app: App, after cursor: KeysetCursor?, limit: Int) async throws -> [BroadcastChannel] {
        let rows = try await pool.query(
            """
            SELECT \(Self.columns) FROM broadcast_channels
            WHERE app_id = $1 AND channel_id IS NOT NULL
              AND ($2::bigint IS NULL
                   OR (created_at, id) > (to_timestamp(0) + $2::bigint * interval '1 microsecond', $3::bigint))
            ORDER BY created_at, id
            LIMIT $4
            """, [app.id, cursor?.microseconds, cursor?.id, limit + 1])
        return try rows.map(Self.channel(from:))
    }

    package func end(app: App, activityID: String, deletingAfter retention: Duration) async throws -> Bool {
        try await Self.end(appID: app.id, activityID: activityID, deletingAfter: retention, on: pool)
    }

    /// Moves the activity's live channel to `ending`, to be deleted after `retention`; false when it had
    /// none live. Shared by the API (an end accepted) and delivery (a scheduled end sent).
    static func end(
        appID: UUID, activityID: String, deletingAfter retention: Duration, on pool: PostgresConnectionPool
    )
        async throws -> Bool
    {
        try await pool.query(
            """
            UPDATE broadcast_channels SET state = 'ending', delete_after = now() + make_interval(secs => $3)
            WHERE app_id = $1 AND activity_id = $2 AND state = 'live'
            """, [appID, activityID, retention.inSeconds]
        ).affectedRowCount == 1
    }

    package func claimExpired(limit: Int, lease: Duration) async throws -> [BroadcastChannel] {
        // SKIP LOCKED: gateways running housekeeping at once take different channels.
        let rows = try await pool.query(
            """
            UPDATE broadcast_channels SET delete_after = now() + make_interval(secs => $2)
            WHERE id IN (
                SELECT id FROM broadcast_channels WHERE state = 'ending' AND delete_after <= now()
                ORDER BY delete_after LIMIT $1 FOR UPDATE SKIP LOCKED)
            RETURNING \(Self.columns)
            """, [limit, lease.inSeconds])
        return try rows.map(Self.channel(from:))
    }

    package func log(_ entry: ActivityLogEntry, app: App) async throws {
        try await pool.withConnection { connection in
            try ActivityLogStatement.insert([entry], workspaceID: app.workspaceID, appID: app.id, on: connection)
        }
    }

    static func channel(from row: PostgresRow) throws -> BroadcastChannel {
        let state: String = try row.require("state")
        let channelID: String? = try row.decode("channel_id")
        return BroadcastChannel(
            id: try row.require("id"), appID: try row.require("app_id"), activityID: try row.require("activity_id"),
            state: BroadcastChannelState(rawValue: state) ?? .gone, channelID: channelID.map(ChannelID.init(rawValue:)),
            messageStoragePolicy: MessageStoragePolicy(rawValue: try row.require("policy")),
            createdAt: try row.require("created_at"), createdAtMicroseconds: try row.require("created_micros"))
    }
}
