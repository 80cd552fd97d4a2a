import APNsCore
import Foundation
import NIOConcurrencyHelpers
import PostgresClient

/// Dispatches in PostgreSQL. Updates, and starts to users, without an idempotency key go through group
/// commit; everything else (a start to an audience among them) commits in a transaction of its own.
/// Once a commit has succeeded (never before, never after a failed one) the store publishes it: it
/// rings the delivery doorbell, so this gateway's delivery engine starts on it at once, and tells this
/// gateway's deliveries of what it superseded to stop.
public final class PostgresDispatchStore: DispatchStore {
    let pool: PostgresConnectionPool
    private let updates: GroupCommitQueue<Dispatch, UpdateResolution>
    private let starts: GroupCommitQueue<PendingStart, StartResolution>
    private let doorbell: DeliveryDoorbell?
    private let stops: DispatchStopSignals?
    private let supersedes: Bool

    /// `stops`: this gateway's deliveries, told at once when a commit supersedes one of them.
    /// `handoff`: this gateway's delivery engine, handed the updates group commit writes for it.
    public init(
        pool: PostgresConnectionPool, commitSettings: DispatchCommitSettings = .init(), doorbell: DeliveryDoorbell? = nil,
        stops: DispatchStopSignals? = nil, handoff: DeliveryHandoff? = nil
    ) {
        self.pool = pool
        self.doorbell = doorbell
        self.stops = stops
        let supersedes = commitSettings.supersedes
        self.supersedes = supersedes
        self.updates = GroupCommitQueue(settings: commitSettings) { batch in
            await Self.writeUpdates(batch, supersede: supersedes, pool: pool, doorbell: doorbell, handoff: handoff)
        }
        self.starts = GroupCommitQueue(settings: commitSettings) { batch in
            await Self.writeStarts(batch, pool: pool, doorbell: doorbell, handoff: handoff)
        }
    }

    public func commitUpdate(
        _ dispatch: Dispatch, idempotency: IdempotencyClaim?,
        respond: @escaping @Sendable (UpdateResolution) -> StoredResponse
    ) async throws -> IdempotentOutcome {
        guard let idempotency else {
            // The statement's writer woke the engine (`writeUpdates`): once for all its dispatches.
            let resolution = try await updates.submit(dispatch)
            publish(resolution, ring: false)
            return .committed(respond(resolution))
        }
        let supersede = supersedes
        let resolved = NIOLockedValueBox<UpdateResolution?>(nil)
        let outcome = try await pool.transaction { connection in
            try IdempotencyRecords.run(idempotency, workspaceID: dispatch.workspaceID, on: connection) {
                let resolution = try UpdateDispatchStatement.insert([dispatch], supersede: supersede, on: connection)[0].resolution
                resolved.withLockedValue { $0 = resolution }
                return respond(resolution)
            }
        }
        // Nil: the key's earlier answer was replayed, and nothing new was committed.
        if let resolution = resolved.withLockedValue({ $0 }) { publish(resolution) }
        return outcome
    }

    /// After a successful commit: tells this gateway's deliveries of the dispatches the commit
    /// superseded to stop now, rather than at their next page or check, and wakes its delivery engine.
    private func publish(_ resolution: UpdateResolution? = nil, ring: Bool = true) {
        for id in resolution?.supersededDispatches ?? [] { stops?.stop(id, because: .superseded) }
        if ring { doorbell?.ring() }
    }

    public func commitStart(
        _ dispatch: Dispatch, targeting: StartTargeting, idempotency: IdempotencyClaim?,
        respond: @escaping @Sendable (StartResolution) -> StoredResponse
    ) async throws -> IdempotentOutcome {
        if idempotency == nil, targeting.audience == nil {
            // The statement's writer rang the doorbell (`writeStarts`): once for all its starts.
            let resolution = try await starts.submit(PendingStart(dispatch: dispatch, targeting: targeting))
            return .committed(respond(resolution))
        }
        let outcome = try await pool.transaction { connection in
            let write = {
                respond(try StartDispatchStatements.insert(dispatch, targeting: targeting, on: connection))
            }
            guard let idempotency else { return IdempotentOutcome.committed(try write()) }
            return try IdempotencyRecords.run(idempotency, workspaceID: dispatch.workspaceID, on: connection, write)
        }
        publish()
        return outcome
    }

    /// One transaction for the whole batch (`StartBatchStatements`), written and handed over as
    /// `writeHandingOver` says.
    static func writeStarts(
        _ batch: [PendingStart], pool: PostgresConnectionPool, doorbell: DeliveryDoorbell? = nil,
        handoff: DeliveryHandoff? = nil
    ) async
        -> [Result<StartResolution, any Error>]
    {
        await writeHandingOver(batch, dispatch: \.dispatch, doorbell: doorbell, handoff: handoff) { starts, lease in
            try await pool.transaction { connection in
                try StartBatchStatements.insert(starts, lease: lease, on: connection)
            }
        }
    }

    /// One statement for the whole batch (`UpdateDispatchStatement`), written and handed over as
    /// `writeHandingOver` says.
    static func writeUpdates(
        _ batch: [Dispatch], supersede: Bool, pool: PostgresConnectionPool, doorbell: DeliveryDoorbell? = nil,
        handoff: DeliveryHandoff? = nil
    ) async
        -> [Result<UpdateResolution, any Error>]
    {
        await writeHandingOver(batch, dispatch: \.self, doorbell: doorbell, handoff: handoff) { dispatches, lease in
            try await pool.withConnection { connection in
                try UpdateDispatchStatement.insert(dispatches, supersede: supersede, lease: lease, on: connection)
            }
        }
    }
}
