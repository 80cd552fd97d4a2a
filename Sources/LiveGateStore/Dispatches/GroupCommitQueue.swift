import Foundation
import LiveGateDomain
import NIOConcurrencyHelpers

/// Gathers concurrent commits into shared statements without a background task of its own.
///
/// Up to `maximumConcurrentStatements` callers at a time are leaders: a leader writes its own item
/// together with whatever waiters queued behind the busy leaders, wakes them with their results, and
/// then hands the lead to the next waiter, if any, rather than looping on others' behalf. Under light
/// load every caller leads at once and writes alone; under heavy load statements fill up.
final class GroupCommitQueue<Item: Sendable, Output: Sendable>: Sendable {
    typealias Flush = @Sendable ([Item]) async -> [Result<Output, any Error>]

    private enum Turn {
        case done(Result<Output, any Error>)
        case lead
    }

    private struct Entry {
        let id: UInt64
        let item: Item
        /// Nil for the entry of a caller that leads: it collects its own result.
        var waiter: CheckedContinuation<Turn, Never>?
    }

    private struct State {
        var nextID: UInt64 = 0
        var pending: [Entry] = []
        var leaders = 0
    }

    private let settings: DispatchCommitSettings
    private let flush: Flush
    private let state = NIOLockedValueBox(State())

    init(settings: DispatchCommitSettings, flush: @escaping Flush) {
        self.settings = settings
        self.flush = flush
    }

    /// Returns once `item` has been written (or failed to be).
    func submit(_ item: Item) async throws -> Output {
        let id = state.withLockedValue { state -> UInt64 in
            defer { state.nextID &+= 1 }
            return state.nextID
        }
        let turn = await withCheckedContinuation { (continuation: CheckedContinuation<Turn, Never>) in
            let leads = state.withLockedValue { state -> Bool in
                let leads = state.leaders < settings.maximumConcurrentStatements
                if leads { state.leaders += 1 }
                state.pending.append(Entry(id: id, item: item, waiter: leads ? nil : continuation))
                return leads
            }
            if leads { continuation.resume(returning: .lead) }
        }
        switch turn {
        case .done(let result): return try result.get()
        case .lead: return try await lead(ownID: id).get()
        }
    }

    private func lead(ownID: UInt64) async -> Result<Output, any Error> {
        let batch = state.withLockedValue { state -> [Entry] in
            var taken: [Entry] = []
            var kept: [Entry] = []
            kept.reserveCapacity(state.pending.count)
            for entry in state.pending {
                // Other leaders' own entries stay: their leaders write them.
                if entry.id == ownID || (entry.waiter != nil && taken.count < settings.maximumRowsPerStatement) {
                    taken.append(entry)
                } else {
                    kept.append(entry)
                }
            }
            state.pending = kept
            return taken
        }
        let results = await flush(batch.map(\.item))
        // Hand the lead on first, so the next statement starts while this batch's callers wake up.
        let successor = state.withLockedValue { state -> CheckedContinuation<Turn, Never>? in
            if let index = state.pending.firstIndex(where: { $0.waiter != nil }) {
                defer { state.pending[index].waiter = nil }
                return state.pending[index].waiter
            }
            state.leaders -= 1
            return nil
        }
        successor?.resume(returning: .lead)
        var own: Result<Output, any Error>?
        for (index, entry) in batch.enumerated() {
            let result = index < results.count ? results[index] : .failure(GroupCommitError())
            if let waiter = entry.waiter {
                waiter.resume(returning: .done(result))
            } else {
                own = result
            }
        }
        return own ?? .failure(GroupCommitError())
    }
}

/// The flush returned fewer results than items: a bug, reported rather than hung on.
struct GroupCommitError: Error, CustomStringConvertible {
    var description: String { "group commit produced no result for an item" }
}
