import Foundation
import LiveGateDomain
import PostgresClient

extension PostgresDispatchStore {
    /// Writes one group-commit batch with `insert`, all or nothing; if that fails on a row (say its app
    /// was deleted meanwhile), each item is written alone so the others still commit. The batch's
    /// dispatches sent now are written under the listener's lease (nil when it cannot take them) and
    /// told to it once committed; so is whether anything was written pending, for a claim. `insert`
    /// returns each item's resolution and acceptance time.
    static func writeHandingOver<Item: Sendable, Resolution: Sendable>(
        _ batch: [Item], dispatch: (Item) -> Dispatch, listener: (any DispatchCommitListener)?,
        insert: @escaping @Sendable ([Item], CommitLease?) async throws -> [CommittedDispatch<Resolution>]
    ) async -> [Result<Resolution, any Error>] {
        let sentNow = batch.filter { dispatch($0).sendAt == nil }
        let lease = sentNow.isEmpty ? nil : listener?.lease(for: sentNow.count)
        do {
            let written = try await insert(batch, lease)
            let leased = lease == nil ? [] : zip(batch, written).filter { dispatch($0.0).sendAt == nil }
            listener?.committed(
                leased: leased.map { ClaimedDispatch(handedOver: dispatch($0.0), createdAt: $0.1.createdAt) }, under: lease,
                wrotePending: leased.count < batch.count)
            return written.map { .success($0.resolution) }
        } catch let error as PostgresError where error.code == .statementFailed && batch.count > 1 {
            if let lease { listener?.commitFailed(under: lease) }
            var results: [Result<Resolution, any Error>] = []
            for item in batch {
                do {
                    results.append(.success(try await insert([item], nil)[0].resolution))
                } catch {
                    results.append(.failure(error))
                }
            }
            if results.contains(where: { if case .success = $0 { true } else { false } }) {
                listener?.committed(leased: [], under: nil, wrotePending: true)
            }
            return results
        } catch {
            if let lease { listener?.commitFailed(under: lease) }
            return batch.map { _ in .failure(error) }
        }
    }
}
