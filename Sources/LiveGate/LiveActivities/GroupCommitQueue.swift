import Foundation
import NIOConcurrencyHelpers

/// Gathers concurrent commits into shared statements, written by a drainer that holds one connection
/// and loops on its blocking thread for as long as anything is queued.
///
/// A caller queues its item and waits. If fewer than `maximumConcurrentStatements` drainers run, it
/// starts one: the drainer takes a connection, then writes batch after batch of whatever is queued and
/// wakes each batch's callers straight from that thread, until the queue is empty. Under light load
/// every call is a batch of one; under heavy load batches fill up while the previous one commits.
/// Looping on the connection's thread saves, per batch, taking the connection from the pool and the
/// thread hops (to the blocking thread, back, and on to the next leader) a statement per task costs.
final class GroupCommitQueue<Item: Sendable, Output: Sendable, Writer: Sendable>: Sendable {
    /// Runs `body` on a thread where blocking is allowed, holding one writer (a connection) for all of
    /// it; throws if no writer could be had.
    typealias Session = @Sendable (_ body: @escaping @Sendable (Writer) -> Void) async throws -> Void
    /// Writes one batch on `writer` (blocking).
    typealias Write = @Sendable (_ batch: [Item], _ writer: Writer) -> BatchOutcome

    enum BatchOutcome {
        /// A result per item, in order; the writer is still usable.
        case written([Result<Output, any Error>])
        /// The writer broke before any of the batch was written (a connection that went stale while idle,
        /// say): the batch may be tried once more on another.
        case brokeBeforeWriting(any Error)
        /// The writer broke after some of the batch may have been written: a result per item, and the
        /// session ends.
        case brokeWhileWriting([Result<Output, any Error>])
    }

    private struct Entry {
        let item: Item
        let waiter: CheckedContinuation<Result<Output, any Error>, Never>
    }

    private struct State {
        var pending: [Entry] = []
        var drainers = 0
    }

    /// What one session left to the next: a batch to try again, and whether the queue ran empty.
    private struct SessionEnd {
        var carried: [Entry]?
        var queueEmpty = false
    }

    private let settings: DispatchCommitSettings
    private let session: Session
    private let write: Write
    private let state = NIOLockedValueBox(State())

    init(settings: DispatchCommitSettings, session: @escaping Session, write: @escaping Write) {
        self.settings = settings
        self.session = session
        self.write = write
    }

    /// Returns once `item` has been written (or failed to be).
    func submit(_ item: Item) async throws -> Output {
        let result = await withCheckedContinuation { (waiter: CheckedContinuation<Result<Output, any Error>, Never>) in
            let startsDrainer = state.withLockedValue { state -> Bool in
                state.pending.append(Entry(item: item, waiter: waiter))
                guard state.drainers < settings.maximumConcurrentStatements else { return false }
                state.drainers += 1
                return true
            }
            if startsDrainer { Task { await self.drain() } }
        }
        return try result.get()
    }

    /// Up to a statement's worth of queued entries, oldest first; nil, and one drainer fewer, when none.
    private func take() -> [Entry]? {
        state.withLockedValue { state in
            guard !state.pending.isEmpty else {
                state.drainers -= 1
                return nil
            }
            let count = min(state.pending.count, settings.maximumRowsPerStatement)
            defer { state.pending.removeFirst(count) }
            return Array(state.pending.prefix(count))
        }
    }

    private func drain() async {
        var carried: [Entry]?
        while true {
            let end = NIOLockedValueBox(SessionEnd(carried: carried))
            do {
                try await session { writer in self.run(on: writer, end) }
            } catch {
                // No connection: answer the oldest waiting batch with the error rather than hold it.
                guard let batch = end.withLockedValue({ $0.carried }) ?? take() else { return }
                Self.resume(batch, with: batch.map { _ in .failure(error) })
                carried = nil
                continue
            }
            let ended = end.withLockedValue { $0 }
            if ended.queueEmpty { return }
            // The connection broke: a new session carries on with what is queued.
            carried = ended.carried
        }
    }

    /// One session's loop, on the writer's thread: batch after batch until the queue is empty or the
    /// writer breaks.
    private func run(on writer: Writer, _ end: NIOLockedValueBox<SessionEnd>) {
        var wroteAny = false
        while true {
            let carried = end.withLockedValue { end in defer { end.carried = nil }; return end.carried }
            guard let batch = carried ?? take() else {
                end.withLockedValue { $0.queueEmpty = true }
                return
            }
            switch write(batch.map(\.item), writer) {
            case .written(let results):
                wroteAny = true
                Self.resume(batch, with: results)
            case .brokeBeforeWriting(let error):
                // Tried once more on a new connection, if this one had not written anything yet (it had
                // gone stale while idle) and the batch is not already such a second try.
                if !wroteAny && carried == nil {
                    end.withLockedValue { $0.carried = batch }
                } else {
                    Self.resume(batch, with: batch.map { _ in .failure(error) })
                }
                return
            case .brokeWhileWriting(let results):
                Self.resume(batch, with: results)
                return
            }
        }
    }

    private static func resume(_ batch: [Entry], with results: [Result<Output, any Error>]) {
        for (index, entry) in batch.enumerated() {
            entry.waiter.resume(returning: index < results.count ? results[index] : .failure(GroupCommitError()))
        }
    }
}

/// The write returned fewer results than items: a bug, reported rather than hung on.
struct GroupCommitError: Error, CustomStringConvertible {
    var description: String { "group commit produced no result for an item" }
}
