import APNsCore
import Foundation
import LiveGateDomain
import PostgresClient
import UUIDText

/// `DispatchBatchQueue`'s statements: each covers a whole batch of small dispatches in one round trip.
extension PostgresDeliveryQueue {
    package func firstTargets(
        of claimed: [ClaimedDispatch], limit: Int, tokenLifetime: Duration
    )
        async throws -> [UUID: BatchTargets]
    {
        let starts = claimed.filter { $0.dispatch.event == .start }
        let others = claimed.filter { $0.dispatch.event != .start }
        return try await pool.withConnection { connection in
            var found: [UUID: BatchTargets] = [:]
            if !others.isEmpty {
                let rows = try connection.query(
                    DispatchBatchStatements.activityTargets,
                    [
                        others.map(\.dispatch.appID.lowercasedText), others.map(\.dispatch.activityID),
                        others.map { $0.dispatch.externalID ?? "" }, others.map(\.dispatch.workspaceID.lowercasedText),
                        others.map { String($0.fanoutCursor) }, tokenLifetime.inSeconds, limit,
                        others.map { $0.priorityBudget?.readsDeviceSettings == true ? "t" : "f" },
                    ])
                try Self.collect(rows, of: others, into: &found)
            }
            if !starts.isEmpty {
                let rows = try connection.query(
                    DispatchBatchStatements.startTargets,
                    [starts.map(\.dispatch.id.lowercasedText), starts.map { String($0.fanoutCursor) }, limit])
                try Self.collect(rows, of: starts, into: &found)
            }
            return found
        }
    }

    /// Rows come per dispatch by `ord` (1-based, in the order given), a row without a token for a
    /// dispatch that has none.
    private static func collect(_ rows: PostgresRows, of claimed: [ClaimedDispatch], into found: inout [UUID: BatchTargets]) throws {
        for dispatch in claimed { found[dispatch.dispatch.id] = BatchTargets() }
        for row in rows {
            let id = claimed[try row.require("ord", as: Int.self) - 1].dispatch.id
            if try row.require("has_channel", as: Bool.self) { found[id]?.hasChannel = true }
            // The tables only hold valid hex; a row that is not is skipped rather than stalling the fan-out.
            guard let hex: String = try row.decode("push_token"), let token = PushToken(hex: hex) else { continue }
            found[id]?.targets.append(
                FanoutTarget(
                    cursor: try row.require("id"), token: token, externalID: try row.decode("external_id"),
                    frequentPushesEnabled: try row.decode("frequent_pushes_enabled")))
        }
    }

    package func countPriority(_ counts: [PriorityCount]) async throws -> [UUID: PriorityStanding] {
        guard !counts.isEmpty else { return [:] }
        return try await pool.withConnection { try PriorityCountStatement.count(counts, on: $0) }
    }

    package func supersededStillSending(before claimed: [ClaimedDispatch]) async throws -> [SupersededDelivery] {
        let ids = claimed.filter { $0.dispatch.event != .start }.map(\.dispatch.id.lowercasedText)
        guard !ids.isEmpty else { return [] }
        let rows = try await pool.withConnection { try $0.query(DispatchBatchStatements.supersededStillSending, [ids]) }
        return try rows.map {
            SupersededDelivery(newer: try $0.require("newer"), older: try $0.require("older"), worker: try $0.decode("leased_by"))
        }
    }

    package func extendLeases(_ ids: [UUID], worker: String, lease: Duration) async throws -> Set<UUID> {
        guard !ids.isEmpty else { return [] }
        let rows = try await pool.query(
            """
            UPDATE dispatches SET leased_until = now() + make_interval(secs => $3)
            WHERE id = ANY($1::uuid[]) AND leased_by = $2 AND status = 'delivering'
            RETURNING id
            """,
            [ids.map(\.lowercasedText), worker, lease.inSeconds])
        return Set(try rows.map { try $0.require("id", as: UUID.self) })
    }

    package func supersedeOnHandover(_ handed: [Dispatch]) async throws -> [UUID: UUID] {
        guard supersedes, !handed.isEmpty else { return [:] }
        let events = events
        return try await pool.withConnection { try SupersessionStatement.supersede(byHandedOver: handed, events: events, on: $0) }
    }

    package func unclaim(_ ids: [UUID], worker: String, retryAt: Date) async throws {
        guard !ids.isEmpty else { return }
        _ = try await pool.query(
            """
            UPDATE dispatches
            SET status = 'pending', attempts = attempts - 1, next_attempt_at = $3, leased_by = NULL, leased_until = NULL
            WHERE id = ANY($1::uuid[]) AND leased_by = $2 AND status = 'delivering'
            """,
            [ids.map(\.lowercasedText), worker, retryAt])
    }

    package func settle(_ settlements: [DispatchSettlement], worker: String) async throws -> Set<UUID> {
        guard !settlements.isEmpty else { return [] }
        return try await pool.transaction { connection in
            var settled: Set<UUID> = []
            var endEvents: [OutgoingEvent] = []
            // Locked in id order (UUID's order is PostgreSQL's, byte by byte), as supersession locks what it
            // supersedes (its rows come sorted by id): a batch ending while a commit supersedes some of its
            // dispatches cannot deadlock with it.
            let settlements = settlements.sorted { $0.claimed.dispatch.id < $1.claimed.dispatch.id }
            let finished = settlements.compactMap { settlement -> (DispatchSettlement, DispatchState)? in
                guard case .finished(let status) = settlement.ending else { return nil }
                return (settlement, status)
            }
            if !finished.isEmpty {
                let progress = finished.map(\.0.progress)
                let rows = try connection.query(
                    DispatchBatchStatements.finish,
                    [
                        worker, finished.map(\.0.claimed.dispatch.id.lowercasedText), finished.map(\.1.rawValue),
                        progress.map { String($0.cursor) }, progress.map { String($0.sent) }, progress.map { String($0.failed) },
                        progress.map { String($0.retried) }, progress.map { String($0.removed) },
                    ])
                let byID = Dictionary(finished.map { ($0.0.claimed.dispatch.id, $0.0.claimed.dispatch) }, uniquingKeysWith: { a, _ in a })
                for row in rows {
                    let id: UUID = try row.require("id")
                    settled.insert(id)
                    guard let events, let dispatch = byID[id],
                        let state = DispatchState(rawValue: try row.require("status")),
                        let event = OutgoingEvent.finished(
                            dispatch, state: state,
                            counts: DispatchCounts(
                                sent: try row.require("sent_count"), failed: try row.require("failed_count"),
                                removed: try row.require("removed_count")),
                            supersededBy: try row.decode("superseded_by")),
                        events.wants(event.type, workspaceID: dispatch.workspaceID, appID: dispatch.appID)
                    else { continue }
                    endEvents.append(event)
                }
            }
            let released = settlements.compactMap { settlement -> (DispatchSettlement, Date)? in
                guard case .handedBack(let retryAt) = settlement.ending else { return nil }
                return (settlement, retryAt)
            }
            if !released.isEmpty {
                let rows = try connection.query(
                    DispatchBatchStatements.release,
                    [
                        worker, released.map(\.0.claimed.dispatch.id.lowercasedText),
                        released.map { PostgresTimestamp.format($0.1) }, released.map { String($0.0.progress.retried) },
                        released.map { $0.0.claimed.priorityStanding.map { String($0.position) } ?? "" },
                    ])
                for row in rows { settled.insert(try row.require("id")) }
            }
            // What the answers change besides the dispatches: only for those whose lease held.
            let kept = settlements.filter { settled.contains($0.claimed.dispatch.id) }
            let removedTokens = try removeDeadTokens(of: kept, on: connection)
            // Retired in one statement for the batch; their events, per dispatch, for the apps subscribed.
            let endedTokens = kept.flatMap(\.progress.endedTokens)
            var retiredTokens: [OutgoingEvent] = []
            if kept.contains(where: { !$0.progress.endedTokens.isEmpty && wantsTokenRemovals(of: $0.claimed.dispatch) }) {
                for settlement in kept where !settlement.progress.endedTokens.isEmpty {
                    let dispatch = settlement.claimed.dispatch
                    retiredTokens += try FanoutStatements.retireEndedTokens(
                        settlement.progress.endedTokens, eventsOf: wantsTokenRemovals(of: dispatch) ? dispatch : nil, on: connection)
                }
            } else {
                try FanoutStatements.retireEndedTokens(endedTokens, on: connection)
            }
            // A start to an audience records its devices as its own rows, from their token rows.
            for audienceStart in kept where audienceStart.claimed.dispatch.audience != nil {
                try FanoutStatements.recordAnswers(audienceStart.progress.answers, of: audienceStart.claimed.dispatch, on: connection)
            }
            let (starts, others) = (
                kept.filter { $0.claimed.dispatch.event == .start && $0.claimed.dispatch.audience == nil },
                kept.filter { $0.claimed.dispatch.event != .start }
            )
            // In token order, as a fan-out's pages record theirs: batches answering the same devices (updates
            // to the same activities, recorded at once) lock the rows in one order and cannot deadlock.
            let inTokenOrder = { (settlements: [DispatchSettlement]) in
                settlements.flatMap(\.progress.answers).sorted { $0.cursor < $1.cursor }
            }
            try FanoutStatements.recordAnswers(inTokenOrder(starts), ofStart: true, on: connection)
            try FanoutStatements.recordActivityAnswers(others.map { ($0.claimed.dispatch, $0.progress.answers) }, on: connection)
            // Each push's event, then each end's, for those someone subscribes to.
            try EventStatement.insert(
                kept.flatMap { pushEvents($0.progress, of: $0.claimed.dispatch) } + removedTokens + retiredTokens + endEvents,
                on: connection)
            // APNs's 429s counted in their activities' hours; the first of an hour is logged.
            let throttled = try ThrottledHoursStatement.count(kept.map { ($0.claimed.dispatch, $0.progress) }, on: connection)
            for (app, entries) in Dictionary(grouping: kept, by: \.claimed.dispatch.appID) {
                let log = entries.flatMap { $0.progress.log + $0.log } + (throttled[app] ?? [])
                _ = try ActivityLogStatement.insert(log, workspaceID: entries[0].claimed.dispatch.workspaceID, appID: app, on: connection)
            }
            return settled
        }
    }

    /// Per app and token table: starts' tokens are push-to-start tokens, the others' update tokens.
    /// Returns their `token.removed` events for the apps someone subscribes to.
    private func removeDeadTokens(of settlements: [DispatchSettlement], on connection: PostgresConnection) throws -> [OutgoingEvent] {
        let grouped = Dictionary(grouping: settlements.filter { !$0.progress.deadTokens.isEmpty }) {
            DeadTokenTable(appID: $0.claimed.dispatch.appID, isStart: $0.claimed.dispatch.event == .start)
        }
        var removed: [OutgoingEvent] = []
        for (_, group) in grouped {
            let dispatch = group[0].claimed.dispatch
            removed += try FanoutStatements.removeDeadTokens(
                group.flatMap(\.progress.deadTokens), of: dispatch, wantsEvents: wantsTokenRemovals(of: dispatch), on: connection)
        }
        return removed
    }

    private struct DeadTokenTable: Hashable {
        let appID: UUID
        let isStart: Bool
    }
}
