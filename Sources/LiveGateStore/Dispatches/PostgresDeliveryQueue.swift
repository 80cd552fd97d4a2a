import APNsCore
import Foundation
import LiveGateDomain
import PostgresClient
import UUIDText

package struct PostgresDeliveryQueue: DeliveryQueue {
    let pool: PostgresConnectionPool
    /// Claimed updates and ends supersede what they cover; off only to measure what that saves.
    let supersedes: Bool
    /// When claims last looked for the dispatches of workers whose session ended.
    private let deadSessionSearch: DeadSessionSearch
    /// Who subscribes to which events: pushes and ends are written as events only for them.
    let events: (any EventInterest)?

    /// `deadSessionInterval`: how often claims look for the dispatches of workers whose session ended
    /// (each look reads every dispatch being delivered); expired leases and due dispatches are read by
    /// every claim.
    package init(
        pool: PostgresConnectionPool, supersedes: Bool = true, deadSessionInterval: Duration = .seconds(1),
        events: (any EventInterest)? = nil
    ) {
        self.pool = pool
        self.supersedes = supersedes
        self.deadSessionSearch = DeadSessionSearch(interval: deadSessionInterval)
        self.events = events
    }

    package func wantsPushEvents(for dispatch: Dispatch) -> Bool {
        guard let events else { return false }
        return events.wants(.pushSent, workspaceID: dispatch.workspaceID, appID: dispatch.appID)
            || events.wants(.pushFailed, workspaceID: dispatch.workspaceID, appID: dispatch.appID)
    }

    /// Whether anyone subscribes to `token.removed` for the dispatch's app.
    func wantsTokenRemovals(of dispatch: Dispatch) -> Bool {
        events?.wants(.tokenRemoved, workspaceID: dispatch.workspaceID, appID: dispatch.appID) == true
    }

    /// The push events of a page or an end, for the types someone subscribes to.
    func pushEvents(_ progress: FanoutProgress, of dispatch: Dispatch) -> [OutgoingEvent] {
        guard let events, !progress.pushes.isEmpty else { return [] }
        return progress.pushes.map { OutgoingEvent.push($0, of: dispatch) }.filter {
            events.wants($0.type, workspaceID: dispatch.workspaceID, appID: dispatch.appID)
        }
    }

    package func claim(
        worker: String, session: Int32?, limit: Int, lease: Duration, excluding: Set<UUID>
    )
        async throws -> [ClaimedDispatch]
    {
        let supersedes = supersedes
        let lookForDeadSessions = deadSessionSearch.isDue()
        let claim = { @Sendable (connection: PostgresConnection) throws -> [ClaimedDispatch] in
            try ClaimStatement.claim(
                worker: worker, session: session, limit: limit, lease: lease, excluding: excluding,
                lookForDeadSessions: lookForDeadSessions, on: connection)
        }
        guard supersedes else { return try await pool.withConnection(claim) }
        // One transaction: a claim whose supersession fails (the database went away between the two) is
        // rolled back, rather than left leased to a worker that never learned it claimed it, until its lease
        // ran out.
        return try await pool.transaction { connection in
            var claimed = try claim(connection)
            // A claimed dispatch may be superseded by another one of the same claim. Starts to named users
            // supersede nothing; starts to an audience supersede older ones of their activity.
            let superseding = claimed.filter { $0.dispatch.event != .start }.map(\.dispatch)
            var superseded = try SupersessionStatement.supersede(byClaimed: superseding, events: events, on: connection)
            let audienceStarts = claimed.filter { $0.dispatch.audience != nil }.map(\.dispatch)
            superseded.merge(try AudienceStartSupersession.supersede(byClaimed: audienceStarts, events: events, on: connection)) { $1 }
            for index in claimed.indices where superseded[claimed[index].dispatch.id] != nil {
                claimed[index].stop = .superseded
            }
            return claimed
        }
    }

    package func targets(
        of claimed: ClaimedDispatch, after cursor: Int64, limit: Int, tokenLifetime: Duration
    )
        async throws -> [FanoutTarget]
    {
        guard claimed.audience != nil else {
            return try await pool.withConnection { connection in
                try FanoutStatements.page(claimed, after: cursor, limit: limit, tokenLifetime: tokenLifetime, on: connection)
            }
        }
        return try await pool.transaction { connection in
            try AudienceFanoutStatements.probePlans(on: connection)
            return try FanoutStatements.page(claimed, after: cursor, limit: limit, tokenLifetime: tokenLifetime, on: connection)
        }
    }

    package func segmentAudience(_ id: UUID, workspaceID: UUID) async throws -> JSONValue? {
        try await PostgresSegmentStore(pool: pool).segment(id: id, workspaceID: workspaceID)?.audience
    }

    package func targetCount(of claimed: ClaimedDispatch, tokenLifetime: Duration) async throws -> Int {
        try await pool.withConnection { connection in
            try FanoutStatements.count(claimed, tokenLifetime: tokenLifetime, on: connection)
        }
    }

    package func recordProgress(
        _ claimed: ClaimedDispatch, worker: String, progress: FanoutProgress, lease: Duration
    )
        async throws -> RecordedProgress
    {
        let dispatch = claimed.dispatch
        let update = { @Sendable (connection: PostgresConnection) throws -> RecordedProgress in
            let rows = try connection.query(
                """
                UPDATE dispatches
                SET fanout_cursor = $3, sent_count = sent_count + $4, failed_count = failed_count + $5,
                    retried_count = retried_count + $6, removed_count = removed_count + $7,
                    leased_until = now() + make_interval(secs => $8), budget_position = coalesce($9, budget_position)
                WHERE id = $1 AND leased_by = $2 AND status = 'delivering'
                RETURNING \(Self.stopColumn)
                """,
                [
                    dispatch.id, worker, progress.cursor, progress.sent, progress.failed, progress.retried,
                    progress.removed, lease.inSeconds, claimed.priorityStanding?.position,
                ])
            guard let row = rows.first else { return .leaseLost }
            return .recorded(stop: try Self.stop(of: row))
        }
        guard
            !progress.deadTokens.isEmpty || !progress.endedTokens.isEmpty || !progress.log.isEmpty
                || !progress.answers.isEmpty || progress.throttled > 0 || !progress.pushes.isEmpty
        else {
            return try await pool.withConnection(update)
        }
        // One transaction: the cursor never moves past tokens whose removal or log entries were lost.
        return try await pool.transaction { connection in
            let recorded = try update(connection)
            guard recorded != .leaseLost else { return recorded }
            // Answers first: a start to an audience records its devices from their token rows.
            try FanoutStatements.recordAnswers(progress.answers, of: dispatch, on: connection)
            let removed = try FanoutStatements.removeDeadTokens(
                progress.deadTokens, of: dispatch, wantsEvents: wantsTokenRemovals(of: dispatch), on: connection)
            try EventStatement.insert(removed, on: connection)
            let ended = try FanoutStatements.retireEndedTokens(
                progress.endedTokens, eventsOf: wantsTokenRemovals(of: dispatch) ? dispatch : nil, on: connection)
            try EventStatement.insert(ended, on: connection)
            try EventStatement.insert(pushEvents(progress, of: dispatch), on: connection)
            let throttled = try ThrottledHoursStatement.count([(dispatch, progress)], on: connection)
            try ActivityLogStatement.insert(
                progress.log + (throttled[dispatch.appID] ?? []), workspaceID: dispatch.workspaceID, appID: dispatch.appID,
                on: connection)
            return recorded
        }
    }

    /// The claim's SQL, for reading its plan.
    package static var claimStatementSQL: String { ClaimStatement.statement.sql }

    /// Why a dispatch should stop, as a column: cancellation first, as `DELETE` asked for it explicitly.
    static let stopColumn = """
        CASE WHEN cancel_requested_at IS NOT NULL THEN 'cancelled'
             WHEN superseded_by IS NOT NULL THEN 'superseded' END AS stop
        """

    static func stop(of row: PostgresRow) throws -> DispatchStop? {
        try row.decode("stop", as: String.self).flatMap(DispatchStop.init(rawValue:))
    }

    package func stopRequests(among ids: [UUID]) async throws -> [UUID: DispatchStop] {
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

    package func endChannel(of claimed: ClaimedDispatch, deletingAfter retention: Duration) async throws {
        let dispatch = claimed.dispatch
        _ = try await PostgresChannelStore.end(
            appID: dispatch.appID, activityID: dispatch.activityID, deletingAfter: retention, on: pool)
    }

    package func channelMembers(of claimed: ClaimedDispatch, channelID: ChannelID) async throws -> Int {
        try await pool.withConnection { try FanoutStatements.channelMembers(of: claimed, channelID: channelID, on: $0) }
    }

    package func broadcastTarget(of claimed: ClaimedDispatch) async throws -> BroadcastTarget? {
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

    package func recordBroadcast(_ claimed: ClaimedDispatch, worker: String, record: BroadcastRecord) async throws -> Bool {
        let dispatch = claimed.dispatch
        return try await pool.transaction { connection in
            let recorded =
                try connection.query(
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

    package func release(_ id: UUID, worker: String, retryAt: Date) async throws -> Bool {
        try await pool.query(
            """
            UPDATE dispatches SET status = 'pending', next_attempt_at = $3, leased_by = NULL, leased_until = NULL
            WHERE id = $1 AND leased_by = $2 AND status = 'delivering'
            """,
            [id, worker, retryAt]
        ).affectedRowCount == 1
    }
}
