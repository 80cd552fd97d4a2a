import Foundation
import PostgresClient

extension PostgresDispatchStore {
    /// Writes one group-commit batch with `insert`, all or nothing; if that fails on a row (say its app
    /// was deleted meanwhile), each item is written alone so the others still commit. The batch's
    /// dispatches sent now are written leased to this gateway's engine (`insert`'s grant, nil when it
    /// cannot take them) and handed to it once committed (`DeliveryHandoff`); what was written pending
    /// rings the doorbell for a claim. `insert` returns each item's resolution and acceptance time.
    static func writeHandingOver<Item: Sendable, Resolution: Sendable>(
        _ batch: [Item], dispatch: (Item) -> Dispatch, doorbell: DeliveryDoorbell?, handoff: DeliveryHandoff?,
        insert: @escaping @Sendable ([Item], DeliveryHandoff.Grant?) async throws -> [CommittedDispatch<Resolution>]
    ) async -> [Result<Resolution, any Error>] {
        let sentNow = batch.filter { dispatch($0).sendAt == nil }
        let grant = handoff?.grant(sentNow.count)
        var handedOver = false
        // Whatever was written pending waits for a claim: ring for it (a failed write rings for nothing).
        defer { if !handedOver || sentNow.count < batch.count { doorbell?.ring() } }
        do {
            let written = try await insert(batch, grant)
            if let handoff, let grant {
                let handed = zip(batch, written).filter { dispatch($0.0).sendAt == nil }
                handoff.hand(handed.map { ClaimedDispatch(handedOver: dispatch($0.0), createdAt: $0.1.createdAt) }, under: grant)
                handedOver = true
            }
            return written.map { .success($0.resolution) }
        } catch let error as PostgresError where error.code == .statementFailed && batch.count > 1 {
            if let grant { handoff?.giveBack(grant) }
            var results: [Result<Resolution, any Error>] = []
            for item in batch {
                do {
                    results.append(.success(try await insert([item], nil)[0].resolution))
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
