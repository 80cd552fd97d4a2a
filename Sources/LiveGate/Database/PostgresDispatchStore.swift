import APNsCore
import Foundation
import PostgresClient

/// Dispatches in PostgreSQL. Updates without an idempotency key go through group commit; everything
/// else commits in a transaction of its own. Each commit rings the delivery doorbell, so this gateway's
/// delivery engine starts on it at once.
public final class PostgresDispatchStore: DispatchStore {
    let pool: PostgresConnectionPool
    private let updates: GroupCommitQueue<Dispatch, UpdateResolution>
    private let doorbell: DeliveryDoorbell?

    public init(
        pool: PostgresConnectionPool, commitSettings: DispatchCommitSettings = .init(), doorbell: DeliveryDoorbell? = nil
    ) {
        self.pool = pool
        self.doorbell = doorbell
        self.updates = GroupCommitQueue(settings: commitSettings) { batch in
            await Self.writeUpdates(batch, pool: pool)
        }
    }

    public func commitUpdate(
        _ dispatch: Dispatch, idempotency: IdempotencyClaim?,
        respond: @escaping @Sendable (UpdateResolution) -> StoredResponse
    ) async throws -> IdempotentOutcome {
        defer { doorbell?.ring() }
        guard let idempotency else {
            return .committed(respond(try await updates.submit(dispatch)))
        }
        return try await pool.transaction { connection in
            try IdempotencyRecords.run(idempotency, workspaceID: dispatch.workspaceID, on: connection) {
                respond(try UpdateDispatchStatement.insert([dispatch], on: connection)[0])
            }
        }
    }

    public func commitStart(
        _ dispatch: Dispatch, targeting: StartTargeting, idempotency: IdempotencyClaim?,
        respond: @escaping @Sendable (StartResolution) -> StoredResponse
    ) async throws -> IdempotentOutcome {
        defer { doorbell?.ring() }
        return try await pool.transaction { connection in
            let write = {
                respond(try StartDispatchStatements.insert(dispatch, targeting: targeting, on: connection))
            }
            guard let idempotency else { return .committed(try write()) }
            return try IdempotencyRecords.run(idempotency, workspaceID: dispatch.workspaceID, on: connection, write)
        }
    }

    /// One statement for the whole batch; if it fails on a row (say its app was deleted meanwhile), each
    /// row is tried alone so the others still commit.
    static func writeUpdates(_ batch: [Dispatch], pool: PostgresConnectionPool) async -> [Result<UpdateResolution, any Error>] {
        do {
            return try await pool.withConnection { try UpdateDispatchStatement.insert(batch, on: $0) }.map { .success($0) }
        } catch let error as PostgresError where error.code == .statementFailed && batch.count > 1 {
            var results: [Result<UpdateResolution, any Error>] = []
            for dispatch in batch {
                do {
                    results.append(.success(try await pool.withConnection { try UpdateDispatchStatement.insert([dispatch], on: $0)[0] }))
                } catch {
                    results.append(.failure(error))
                }
            }
            return results
        } catch {
            return batch.map { _ in .failure(error) }
        }
    }
}
