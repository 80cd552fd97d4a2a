import APNsCore
import Foundation
import NIOConcurrencyHelpers
import PostgresClient

/// Dispatches in PostgreSQL. Updates, and starts to users, without an idempotency key go through group
/// commit; everything else (a start to an audience among them) commits in a transaction of its own. Once a commit has succeeded (never before, never after a
/// failed one) the store publishes it: it rings the delivery doorbell, so this gateway's delivery engine
/// starts on it at once, and tells this gateway's deliveries of what it superseded to stop.
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

    /// One transaction for the whole batch (`StartBatchStatements`); if it fails (say one start's app
    /// was deleted meanwhile), each start is tried alone so the others still commit. The starts sent now
    /// are written leased to this gateway's engine and handed to it once committed, when it can take
    /// them (`DeliveryHandoff`), as updates are.
    static func writeStarts(
        _ batch: [PendingStart], pool: PostgresConnectionPool, doorbell: DeliveryDoorbell? = nil,
        handoff: DeliveryHandoff? = nil
    ) async
        -> [Result<StartResolution, any Error>]
    {
        let sentNow = batch.filter { $0.dispatch.sendAt == nil }
        let grant = handoff?.grant(sentNow.count)
        var handedOver = false
        var committed = false
        // Whatever was written pending waits for a claim: ring for it (a failed write rings for nothing).
        defer { if committed && (!handedOver || sentNow.count < batch.count) { doorbell?.ring() } }
        do {
            let written = try await pool.transaction { try StartBatchStatements.insert(batch, lease: grant, on: $0) }
            committed = true
            if let handoff, let grant {
                let handed = zip(batch, written).filter { $0.0.dispatch.sendAt == nil }
                handoff.hand(handed.map { ClaimedDispatch(handedOver: $0.0.dispatch, createdAt: $0.1.createdAt) }, under: grant)
                handedOver = true
            }
            return written.map { .success($0.resolution) }
        } catch let error as PostgresError where error.code == .statementFailed && batch.count > 1 {
            if let grant { handoff?.giveBack(grant) }
            var results: [Result<StartResolution, any Error>] = []
            for start in batch {
                do {
                    results.append(
                        .success(try await pool.transaction { try StartBatchStatements.insert([start], on: $0)[0].resolution }))
                    committed = true
                } catch {
                    results.append(.failure(error))
                }
            }
            return results
        } catch {
            if let grant { handoff?.giveBack(grant) }
            return batch.map { _ in .failure(error) }
        }
    }

    /// One statement for the whole batch; if it fails on a row (say its app was deleted meanwhile), each
    /// row is tried alone so the others still commit. The batch's updates sent now are written leased to
    /// this gateway's engine and handed to it once committed, when it can take them (`DeliveryHandoff`).
    static func writeUpdates(
        _ batch: [Dispatch], supersede: Bool, pool: PostgresConnectionPool, doorbell: DeliveryDoorbell? = nil,
        handoff: DeliveryHandoff? = nil
    ) async
        -> [Result<UpdateResolution, any Error>]
    {
        let sentNow = batch.filter { $0.sendAt == nil }
        let grant = handoff?.grant(sentNow.count)
        var handedOver = false
        // Whatever was written pending waits for a claim: ring for it (a failed write rings for nothing).
        defer { if !handedOver || sentNow.count < batch.count { doorbell?.ring() } }
        do {
            let committed = try await pool.withConnection {
                try UpdateDispatchStatement.insert(batch, supersede: supersede, lease: grant, on: $0)
            }
            if let handoff, let grant {
                let handed = zip(batch, committed).filter { $0.0.sendAt == nil }
                handoff.hand(handed.map { ClaimedDispatch(handedOver: $0.0, createdAt: $0.1.createdAt) }, under: grant)
                handedOver = true
            }
            return committed.map { .success($0.resolution) }
        } catch let error as PostgresError where error.code == .statementFailed && batch.count > 1 {
            if let grant { handoff?.giveBack(grant) }
            var results: [Result<UpdateResolution, any Error>] = []
            for dispatch in batch {
                do {
                    results.append(
                        .success(
                            try await pool.withConnection {
                                try UpdateDispatchStatement.insert([dispatch], supersede: supersede, on: $0)[0].resolution
                            }))
                } catch {
                    results.append(.failure(error))
                }
            }
            return results
        } catch {
            if let grant { handoff?.giveBack(grant) }
            return batch.map { _ in .failure(error) }
        }
    }
}
