import NIOConcurrencyHelpers

/// Decides when an `app_id` may be refused without a query of its own. Every app's identifier is loaded
/// in one query (a snapshot) and kept for `timeToLive`. An identifier in the snapshot is looked up (and
/// then cached by `AppDirectory`). One missing from it is refused only once something read after the
/// request arrived says it does not exist: its own lookup, while fewer than `missLookupsPerSecond` were
/// made this second, or else a snapshot loaded after the request came (at most one per
/// `minimumReloadInterval`, shared by every request waiting for it). So an app is found the moment it
/// is created, and a flood of made-up ids (the `app_id` ships inside every app, and `/push_token_tag`
/// needs no key) costs a bounded number of queries a second, not one per request. Memory is bounded by
/// the apps that exist; with more than `capacity` apps no snapshot is kept and each id is looked up.
package final class KnownAppIdentifiers: Sendable {
    enum Answer: Equatable {
        /// No app has this identifier, by a read made after the request arrived.
        case unknown
        /// Ask the database.
        case maybeKnown
    }

    private struct State {
        /// Nil before the first load, and after a load that found more than `capacity` apps.
        var identifiers: Set<String>?
        /// When the query of the snapshot in `identifiers` started.
        var loadedFrom: ContinuousClock.Instant?
        var loading: Task<Bool, Never>?
        var missLookups = MissLookupBudget()
    }

    let timeToLive: Duration
    let capacity: Int
    let missLookupsPerSecond: Int
    let minimumReloadInterval: Duration
    private let load: @Sendable (Int) async throws -> Set<String>?
    private let state = NIOLockedValueBox(State())

    /// `load(capacity)` returns every identifier, or nil when there are more than `capacity`.
    init(
        timeToLive: Duration, capacity: Int, missLookupsPerSecond: Int = 50, minimumReloadInterval: Duration = .seconds(1),
        load: @escaping @Sendable (Int) async throws -> Set<String>?
    ) {
        self.timeToLive = timeToLive
        self.capacity = capacity
        self.missLookupsPerSecond = missLookupsPerSecond
        self.minimumReloadInterval = minimumReloadInterval
        self.load = load
    }

    func answer(for identifier: String) async -> Answer {
        guard timeToLive > .zero else { return .maybeKnown }
        let arrival = ContinuousClock.now
        while true {
            let next = state.withLockedValue { state -> Step in step(for: identifier, arrivedAt: arrival, in: &state) }
            switch next {
            case .answer(let answer):
                return answer
            case .wait(let loading):
                // A failed load: the database itself will answer (or fail clearly).
                guard await loading.value else { return .maybeKnown }
            }
        }
    }

    private enum Step {
        case answer(Answer)
        case wait(Task<Bool, Never>)
    }

    private func step(for identifier: String, arrivedAt arrival: ContinuousClock.Instant, in state: inout State) -> Step {
        let now = ContinuousClock.now
        guard let loadedFrom = state.loadedFrom, now < loadedFrom + timeToLive else {
            return .wait(state.loading ?? startLoad(notBefore: now, in: &state))
        }
        guard let identifiers = state.identifiers, !identifiers.contains(identifier) else { return .answer(.maybeKnown) }
        if loadedFrom >= arrival { return .answer(.unknown) }
        if state.missLookups.take(at: now, perSecond: missLookupsPerSecond) { return .answer(.maybeKnown) }
        // Wait for a snapshot that starts after the request arrived (a running one may predate it).
        if let loading = state.loading { return .wait(loading) }
        return .wait(startLoad(notBefore: max(now, loadedFrom + minimumReloadInterval), in: &state))
    }

    private func startLoad(notBefore: ContinuousClock.Instant, in state: inout State) -> Task<Bool, Never> {
        let task = Task {
            if notBefore > .now { try? await Task.sleep(until: notBefore) }
            return await self.reload()
        }
        state.loading = task
        return task
    }

    /// A failed load changes the snapshot in no way; the next lookup tries again.
    private func reload() async -> Bool {
        let startedAt = ContinuousClock.now
        let loaded: Set<String>??
        do {
            loaded = .some(try await load(capacity))
        } catch {
            loaded = nil
        }
        return state.withLockedValue { state in
            state.loading = nil
            guard let loaded else { return false }
            state.identifiers = loaded
            state.loadedFrom = startedAt
            return true
        }
    }
}

/// How many identifiers missing from the snapshot were looked up in the current second.
private struct MissLookupBudget {
    private var windowStart: ContinuousClock.Instant?
    private var used = 0

    mutating func take(at now: ContinuousClock.Instant, perSecond limit: Int) -> Bool {
        if let start = windowStart, now < start + .seconds(1) {
            guard used < limit else { return false }
            used += 1
            return true
        }
        windowStart = now
        used = 1
        return limit > 0
    }
}
