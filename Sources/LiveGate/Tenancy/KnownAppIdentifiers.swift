import NIOConcurrencyHelpers

/// Every app's identifier, loaded in one query and believed for `timeToLive`: while that snapshot is
/// fresh, an identifier not in it is unknown without a query, so a flood of made-up ids (the `app_id`
/// ships inside every app, and `/push_token_tag` needs no key) costs one query per `timeToLive`, not one
/// per request. Memory is bounded by the apps that exist, not by what clients send; with more than
/// `capacity` apps no snapshot is kept and each unknown id costs its own lookup. A new app is answered
/// as unknown for at most `timeToLive` after a snapshot that predates it.
final class KnownAppIdentifiers: Sendable {
    enum Answer: Equatable {
        case unknown
        /// In the snapshot, or there is no snapshot to go by: ask the database.
        case maybeKnown
    }

    private struct State {
        /// Nil before the first load, and after a load that found more than `capacity` apps.
        var identifiers: Set<String>?
        var loadedAt: ContinuousClock.Instant?
        var loading: Task<Void, Never>?
    }

    let timeToLive: Duration
    let capacity: Int
    private let load: @Sendable (Int) async throws -> Set<String>?
    private let state = NIOLockedValueBox(State())

    /// `load(capacity)` returns every identifier, or nil when there are more than `capacity`.
    init(timeToLive: Duration, capacity: Int, load: @escaping @Sendable (Int) async throws -> Set<String>?) {
        self.timeToLive = timeToLive
        self.capacity = capacity
        self.load = load
    }

    /// `.unknown` only when a fresh snapshot lacks `identifier`. Without a fresh snapshot one is loaded
    /// first; callers arriving meanwhile wait for that same load.
    func answer(for identifier: String) async -> Answer {
        guard timeToLive > .zero else { return .maybeKnown }
        var waited = false
        while true {
            let (answer, loading) = state.withLockedValue { state -> (Answer?, Task<Void, Never>?) in
                if let loadedAt = state.loadedAt, ContinuousClock.now < loadedAt + timeToLive {
                    guard let identifiers = state.identifiers else { return (.maybeKnown, nil) }
                    return (identifiers.contains(identifier) ? .maybeKnown : .unknown, nil)
                }
                // The load just waited for failed: the database itself will answer (or fail clearly).
                if waited { return (.maybeKnown, nil) }
                if let loading = state.loading { return (nil, loading) }
                let task = Task { await self.reload() }
                state.loading = task
                return (nil, task)
            }
            if let answer { return answer }
            await loading?.value
            waited = true
        }
    }

    /// A failed load changes nothing; the next lookup tries again.
    private func reload() async {
        let loaded: Set<String>??
        do {
            loaded = .some(try await load(capacity))
        } catch {
            loaded = nil
        }
        state.withLockedValue { state in
            state.loading = nil
            guard let loaded else { return }
            state.identifiers = loaded
            state.loadedAt = .now
        }
    }
}
