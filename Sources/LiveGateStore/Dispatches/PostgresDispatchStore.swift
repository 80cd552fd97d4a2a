import APNsCore
import Foundation
import LiveGateDomain
import NIOConcurrencyHelpers
import PostgresClient

/// Dispatches in PostgreSQL. Updates, and starts to users, without an idempotency key go through group
/// commit; everything else (a start to an audience among them) commits in a transaction of its own.
/// Once a commit has succeeded (never before, never after a failed one) the store tells its listener
/// (this gateway's delivery engine) what it wrote and what it superseded.
package final class PostgresDispatchStore: DispatchStore {
    let pool: PostgresConnectionPool
    private let updates: GroupCommitQueue<Dispatch, UpdateResolution>
    private let starts: GroupCommitQueue<PendingStart, StartResolution>
    private let listener: (any DispatchCommitListener)?
    private let supersedes: Bool
    /// Who subscribes to `dispatch.accepted`: written with the dispatches it describes.
    private let events: (any EventInterest)?

    /// `listener`: told of every commit; nil when no delivery engine runs beside the store.
    package init(
        pool: PostgresConnectionPool, commitSettings: DispatchCommitSettings = .init(), listener: (any DispatchCommitListener)? = nil,
        events: (any EventInterest)? = nil
    ) {
        self.pool = pool
        self.listener = listener
        self.events = events
        let supersedes = commitSettings.supersedes
        self.supersedes = supersedes
        self.updates = GroupCommitQueue(settings: commitSettings) { batch in
            await Self.writeUpdates(batch, supersede: supersedes, pool: pool, listener: listener, events: events)
        }
        self.starts = GroupCommitQueue(settings: commitSettings) { batch in
            await Self.writeStarts(batch, pool: pool, listener: listener, events: events)
        }
    }

    package func commitUpdate(
        _ dispatch: Dispatch, idempotency: IdempotencyClaim?,
        respond: @escaping @Sendable (UpdateResolution) -> StoredResponse
    ) async throws -> IdempotentOutcome {
        guard let idempotency else {
            // The statement's writer told the listener what it wrote (`writeUpdates`), once for all of it.
            let resolution = try await updates.submit(dispatch)
            publishStops(resolution)
            return .committed(respond(resolution))
        }
        let supersede = supersedes
        let events = events
        let resolved = NIOLockedValueBox<UpdateResolution?>(nil)
        let outcome = try await pool.transaction { connection in
            try IdempotencyRecords.run(idempotency, workspaceID: dispatch.workspaceID, on: connection) {
                let resolution = try UpdateDispatchStatement.insert(
                    [dispatch], supersede: supersede, events: events, on: connection)[0].resolution
                resolved.withLockedValue { $0 = resolution }
                return respond(resolution)
            }
        }
        // Nil: the key's earlier answer was replayed, and nothing new was committed.
        if let resolution = resolved.withLockedValue({ $0 }) {
            publishStops(resolution)
            listener?.committed(leased: [], under: nil, wrotePending: true)
        }
        return outcome
    }

    /// After a successful commit: the deliveries of the dispatches it superseded stop now, rather than at
    /// their next page or check.
    private func publishStops(_ resolution: UpdateResolution) {
        guard !resolution.supersededDispatches.isEmpty else { return }
        listener?.stopped(resolution.supersededDispatches, because: .superseded)
    }

    package func commitStart(
        _ dispatch: Dispatch, targeting: StartTargeting, idempotency: IdempotencyClaim?,
        respond: @escaping @Sendable (StartResolution) -> StoredResponse
    ) async throws -> IdempotentOutcome {
        if idempotency == nil, targeting.audience == nil {
            // The statement's writer told the listener (`writeStarts`): once for all its starts.
            let resolution = try await starts.submit(PendingStart(dispatch: dispatch, targeting: targeting))
            return .committed(respond(resolution))
        }
        let events = events
        let outcome = try await pool.transaction { connection in
            let write = {
                let resolution = try StartDispatchStatements.insert(dispatch, targeting: targeting, on: connection)
                try EventStatement.insert(Self.acceptedEvents([dispatch], events: events), on: connection)
                return respond(resolution)
            }
            guard let idempotency else { return IdempotentOutcome.committed(try write()) }
            return try IdempotencyRecords.run(idempotency, workspaceID: dispatch.workspaceID, on: connection, write)
        }
        listener?.committed(leased: [], under: nil, wrotePending: true)
        return outcome
    }

    /// One transaction for the whole batch (`StartBatchStatements`), written and handed over as
    /// `writeHandingOver` says.
    static func writeStarts(
        _ batch: [PendingStart], pool: PostgresConnectionPool, listener: (any DispatchCommitListener)? = nil,
        events: (any EventInterest)? = nil
    ) async
        -> [Result<StartResolution, any Error>]
    {
        await writeHandingOver(batch, dispatch: \.dispatch, listener: listener) { starts, lease in
            try await pool.transaction { connection in
                let written = try StartBatchStatements.insert(starts, lease: lease, on: connection)
                try EventStatement.insert(acceptedEvents(starts.map(\.dispatch), events: events), on: connection)
                return written
            }
        }
    }

    /// The `dispatch.accepted` events someone subscribes to, for dispatches written in the same transaction.
    static func acceptedEvents(_ dispatches: [Dispatch], events: (any EventInterest)?) -> [OutgoingEvent] {
        guard let events else { return [] }
        return dispatches.filter { events.wants(.dispatchAccepted, workspaceID: $0.workspaceID, appID: $0.appID) }.map(
            OutgoingEvent.accepted)
    }

    /// One statement for the whole batch (`UpdateDispatchStatement`), written and handed over as
    /// `writeHandingOver` says.
    package static func writeUpdates(
        _ batch: [Dispatch], supersede: Bool, pool: PostgresConnectionPool, listener: (any DispatchCommitListener)? = nil,
        events: (any EventInterest)? = nil
    ) async
        -> [Result<UpdateResolution, any Error>]
    {
        await writeHandingOver(batch, dispatch: \.self, listener: listener) { dispatches, lease in
            try await pool.withConnection { connection in
                try UpdateDispatchStatement.insert(dispatches, supersede: supersede, lease: lease, events: events, on: connection)
            }
        }
    }
}
