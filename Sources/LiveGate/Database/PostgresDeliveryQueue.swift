import APNsCore
import Foundation
import PostgresClient

public struct PostgresDeliveryQueue: DeliveryQueue {
    let pool: PostgresConnectionPool

    public init(pool: PostgresConnectionPool) {
        self.pool = pool
    }

    public func claim(worker: String, limit: Int, lease: Duration) async throws -> [ClaimedDispatch] {
        // SKIP LOCKED: concurrent workers (in this process or another gateway) pass over each other's rows.
        let rows = try await pool.query(
            """
            UPDATE dispatches d
            SET status = 'delivering', leased_by = $1, leased_until = now() + make_interval(secs => $2),
                attempts = d.attempts + 1
            FROM (
                SELECT id FROM dispatches
                WHERE next_attempt_at <= now()
                  AND (status = 'pending' OR (status = 'delivering' AND leased_until < now()))
                ORDER BY next_attempt_at
                LIMIT $3
                FOR UPDATE SKIP LOCKED
            ) due
            WHERE d.id = due.id
            RETURNING d.id, d.workspace_id, d.app_id, d.event, d.activity_id, d.external_id, d.payload,
                      d.priority::int AS priority, d.expires_at, d.created_at, d.fanout_cursor, d.attempts,
                      d.broadcast_at IS NOT NULL AS broadcast_recorded
            """,
            [worker, lease.inSeconds, limit])
        return try rows.map { row in
            guard let event = LiveActivityEvent(rawValue: try row.require("event")),
                let priority = APNsPriority(rawValue: try row.require("priority"))
            else { throw PostgresError(code: .decodingFailed, message: "a dispatch has an unknown event or priority") }
            return ClaimedDispatch(
                dispatch: Dispatch(
                    id: try row.require("id"), workspaceID: try row.require("workspace_id"),
                    appID: try row.require("app_id"), event: event, activityID: try row.require("activity_id"),
                    externalID: try row.decode("external_id"),
                    payload: Array(try row.require("payload", as: String.self).utf8), priority: priority,
                    expiresAt: try row.require("expires_at")),
                createdAt: try row.require("created_at"), fanoutCursor: try row.require("fanout_cursor"),
                attempts: try row.require("attempts"), broadcastRecorded: try row.require("broadcast_recorded"))
        }
    }

    public func targets(of claimed: ClaimedDispatch, after cursor: Int64, limit: Int, tokenLifetime: Duration)
        async throws -> [FanoutTarget]
    {
        try await pool.withConnection { connection in
            try FanoutStatements.page(claimed, after: cursor, limit: limit, tokenLifetime: tokenLifetime, on: connection)
        }
    }

    public func targetCount(of claimed: ClaimedDispatch, tokenLifetime: Duration) async throws -> Int {
        try await pool.withConnection { connection in
            try FanoutStatements.count(claimed, tokenLifetime: tokenLifetime, on: connection)
        }
    }

    public func recordProgress(_ claimed: ClaimedDispatch, worker: String, progress: FanoutProgress, lease: Duration)
        async throws -> Bool
    {
        let dispatch = claimed.dispatch
        let update = { @Sendable (connection: PostgresConnection) throws -> Bool in
            try connection.query(
                """
                UPDATE dispatches
                SET fanout_cursor = $3, sent_count = sent_count + $4, failed_count = failed_count + $5,
                    retried_count = retried_count + $6, removed_count = removed_count + $7,
                    leased_until = now() + make_interval(secs => $8)
                WHERE id = $1 AND leased_by = $2 AND status = 'delivering'
                """,
                [dispatch.id, worker, progress.cursor, progress.sent, progress.failed, progress.retried,
                 progress.removed, lease.inSeconds]
            ).affectedRowCount == 1
        }
        guard !progress.deadTokens.isEmpty || !progress.endedTokens.isEmpty || !progress.log.isEmpty else {
            return try await pool.withConnection(update)
        }
        // One transaction: the cursor never moves past tokens whose removal or log entries were lost.
        return try await pool.transaction { connection in
            guard try update(connection) else { return false }
            try FanoutStatements.removeDeadTokens(progress.deadTokens, of: dispatch, on: connection)
            try FanoutStatements.retireEndedTokens(progress.endedTokens, on: connection)
            try ActivityLogStatement.insert(
                progress.log, workspaceID: dispatch.workspaceID, appID: dispatch.appID, on: connection)
            return true
        }
    }

    public func extendLease(_ id: UUID, worker: String, lease: Duration) async throws -> Bool {
        try await pool.query(
            """
            UPDATE dispatches SET leased_until = now() + make_interval(secs => $3)
            WHERE id = $1 AND leased_by = $2 AND status = 'delivering'
            """,
            [id, worker, lease.inSeconds]
        ).affectedRowCount == 1
    }

    public func finish(_ claimed: ClaimedDispatch, worker: String, status: DispatchStatus, log: [ActivityLogEntry])
        async throws -> Bool
    {
        let dispatch = claimed.dispatch
        return try await pool.transaction { connection in
            let finished = try connection.query(
                """
                UPDATE dispatches SET status = $3, completed_at = now(), leased_by = NULL, leased_until = NULL
                WHERE id = $1 AND leased_by = $2 AND status = 'delivering'
                """,
                [dispatch.id, worker, status.rawValue]
            ).affectedRowCount == 1
            guard finished else { return false }
            try ActivityLogStatement.insert(log, workspaceID: dispatch.workspaceID, appID: dispatch.appID, on: connection)
            return true
        }
    }

    public func broadcastTarget(of claimed: ClaimedDispatch) async throws -> BroadcastTarget? {
        let dispatch = claimed.dispatch
        let rows = try await pool.query(
            """
            SELECT channel_id, message_storage_policy::int AS policy FROM broadcast_channels
            WHERE app_id = $1 AND activity_id = $2 AND state IN ('live', 'ending')
            """,
            [dispatch.appID, dispatch.activityID])
        return try rows.first.map { row in
            BroadcastTarget(
                channelID: ChannelID(rawValue: try row.require("channel_id")),
                messageStoragePolicy: MessageStoragePolicy(rawValue: try row.require("policy")))
        }
    }

    public func recordBroadcast(_ claimed: ClaimedDispatch, worker: String, record: BroadcastRecord) async throws -> Bool {
        let dispatch = claimed.dispatch
        return try await pool.transaction { connection in
            let recorded = try connection.query(
                """
                UPDATE dispatches
                SET broadcast_channel_id = $3, broadcast_status = $4, broadcast_reason = $5, broadcast_at = now()
                WHERE id = $1 AND leased_by = $2 AND status = 'delivering'
                """,
                [dispatch.id, worker, record.channelID.rawValue, record.status, record.reason?.rawValue]
            ).affectedRowCount == 1
            guard recorded else { return false }
            if record.channelGone {
                _ = try connection.query(
                    """
                    UPDATE broadcast_channels SET state = 'gone', delete_after = NULL
                    WHERE app_id = $1 AND channel_id = $2 AND state IN ('live', 'ending')
                    """,
                    [dispatch.appID, record.channelID.rawValue])
            }
            try ActivityLogStatement.insert(record.log, workspaceID: dispatch.workspaceID, appID: dispatch.appID, on: connection)
            return true
        }
    }

    public func release(_ id: UUID, worker: String, retryAt: Date) async throws -> Bool {
        try await pool.query(
            """
            UPDATE dispatches SET status = 'pending', next_attempt_at = $3, leased_by = NULL, leased_until = NULL
            WHERE id = $1 AND leased_by = $2 AND status = 'delivering'
            """,
            [id, worker, retryAt]
        ).affectedRowCount == 1
    }
}
