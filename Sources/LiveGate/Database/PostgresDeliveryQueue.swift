import APNsCore
import Foundation
import PostgresClient

public struct PostgresDeliveryQueue: DeliveryQueue {
    let pool: PostgresConnectionPool
    /// Claimed updates and ends supersede what they cover; off only to measure what that saves.
    let supersedes: Bool

    public init(pool: PostgresConnectionPool, supersedes: Bool = true) {
        self.pool = pool
        self.supersedes = supersedes
    }

    public func claim(worker: String, session: Int32?, limit: Int, lease: Duration, excluding: Set<UUID>)
        async throws -> [ClaimedDispatch]
    {
        let supersedes = supersedes
        return try await pool.withConnection { connection in
            var claimed = try Self.claim(
                worker: worker, session: session, limit: limit, lease: lease, excluding: excluding, on: connection)
            guard supersedes else { return claimed }
            // A claimed dispatch may be superseded by another one of the same claim. Starts supersede nothing.
            let superseding = claimed.filter { $0.dispatch.event != .start }.map(\.dispatch.id)
            let superseded = try SupersessionStatement.supersede(byClaimed: superseding, on: connection)
            for index in claimed.indices where superseded[claimed[index].dispatch.id] != nil {
                claimed[index].stop = .superseded
            }
            return claimed
        }
    }

    /// A dispatch being delivered is taken over when its worker's session is gone: this statement can take
    /// that worker's advisory lock (migration 010), for the rest of its own transaction only. A live
    /// worker's lock cannot be taken, and testing it costs no extra round trip. Never this worker's own:
    /// between losing its session and taking it again it must not take back what it is still sending.
    private static func claim(
        worker: String, session: Int32?, limit: Int, lease: Duration, excluding: Set<UUID>,
        on connection: PostgresConnection
    ) throws -> [ClaimedDispatch] {
        // SKIP LOCKED: concurrent workers (in this process or another gateway) pass over each other's rows.
        let rows = try connection.query(
            """
            UPDATE dispatches d
            SET status = 'delivering', leased_by = $1, leased_by_session = $4,
                leased_until = now() + make_interval(secs => $2), attempts = d.attempts + 1
            FROM (
                SELECT id FROM dispatches
                WHERE next_attempt_at <= now() AND id <> ALL($5::uuid[])
                  AND (status = 'pending'
                       OR (status = 'delivering'
                           AND (leased_until < now()
                                OR (leased_by <> $1 AND leased_by_session IS NOT NULL
                                    AND pg_try_advisory_xact_lock(\(PostgresWorkerSession.lockClass), leased_by_session)))))
                ORDER BY next_attempt_at
                LIMIT $3
                FOR UPDATE SKIP LOCKED
            ) due
            WHERE d.id = due.id
            RETURNING d.id, d.workspace_id, d.app_id, d.event, d.activity_id, d.external_id, d.payload,
                      d.priority::int AS priority, d.expires_at, d.created_at, d.fanout_cursor, d.attempts,
                      d.send_at, d.broadcast_at IS NOT NULL AS broadcast_recorded, \(stopColumn)
            """,
            [worker, lease.inSeconds, limit, session, excluding.map(\.lowercasedText)])
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
                    expiresAt: try row.require("expires_at"), sendAt: try row.decode("send_at")),
                createdAt: try row.require("created_at"), fanoutCursor: try row.require("fanout_cursor"),
                attempts: try row.require("attempts"), broadcastRecorded: try row.require("broadcast_recorded"),
                stop: try stop(of: row))
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
        async throws -> RecordedProgress
    {
        let dispatch = claimed.dispatch
        let update = { @Sendable (connection: PostgresConnection) throws -> RecordedProgress in
            let rows = try connection.query(
                """
                UPDATE dispatches
                SET fanout_cursor = $3, sent_count = sent_count + $4, failed_count = failed_count + $5,
                    retried_count = retried_count + $6, removed_count = removed_count + $7,
                    leased_until = now() + make_interval(secs => $8)
                WHERE id = $1 AND leased_by = $2 AND status = 'delivering'
                RETURNING \(Self.stopColumn)
                """,
                [dispatch.id, worker, progress.cursor, progress.sent, progress.failed, progress.retried,
                 progress.removed, lease.inSeconds])
            guard let row = rows.first else { return .leaseLost }
            return .recorded(stop: try Self.stop(of: row))
        }
        guard !progress.deadTokens.isEmpty || !progress.endedTokens.isEmpty || !progress.log.isEmpty else {
            return try await pool.withConnection(update)
        }
        // One transaction: the cursor never moves past tokens whose removal or log entries were lost.
        return try await pool.transaction { connection in
            let recorded = try update(connection)
            guard recorded != .leaseLost else { return recorded }
            try FanoutStatements.removeDeadTokens(progress.deadTokens, of: dispatch, on: connection)
            try FanoutStatements.retireEndedTokens(progress.endedTokens, on: connection)
            try ActivityLogStatement.insert(
                progress.log, workspaceID: dispatch.workspaceID, appID: dispatch.appID, on: connection)
            return recorded
        }
    }

    /// Why a dispatch should stop, as a column: cancellation first, as `DELETE` asked for it explicitly.
    static let stopColumn = """
        CASE WHEN cancel_requested_at IS NOT NULL THEN 'cancelled'
             WHEN superseded_by IS NOT NULL THEN 'superseded' END AS stop
        """

    static func stop(of row: PostgresRow) throws -> DispatchStop? {
        try row.decode("stop", as: String.self).flatMap(DispatchStop.init(rawValue:))
    }

    public func stopRequests(among ids: [UUID]) async throws -> [UUID: DispatchStop] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await pool.query(
            """
            SELECT id, \(Self.stopColumn) FROM dispatches
            WHERE id = ANY($1::uuid[]) AND (cancel_requested_at IS NOT NULL OR superseded_by IS NOT NULL)
            """,
            [ids.map(\.lowercasedText)])
        var stops: [UUID: DispatchStop] = [:]
        for row in rows {
            if let stop = try Self.stop(of: row) { stops[try row.require("id")] = stop }
        }
        return stops
    }

    /// Counts, among the activity's deliveries still sending, the superseded ones older than `claimed`
    /// that reach its devices: superseded by it, or by a dispatch it superseded in turn (that one,
    /// still waiting when `claimed` came, was ended at once, leaving the older delivery pointing at it).
    public func supersededDeliveriesStillSending(before claimed: ClaimedDispatch) async throws -> Int {
        try await supersededStillSending(before: [claimed]).count
    }

    public func endChannel(of claimed: ClaimedDispatch, deletingAfter retention: Duration) async throws {
        let dispatch = claimed.dispatch
        _ = try await PostgresChannelStore.end(
            appID: dispatch.appID, activityID: dispatch.activityID, deletingAfter: retention, on: pool)
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
