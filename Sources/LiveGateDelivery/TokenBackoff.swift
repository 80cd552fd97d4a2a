import APNsClient
import APNsCore
import LiveGateDomain
import NIOConcurrencyHelpers

/// The device tokens and broadcast channels APNs answered 429 `TooManyRequests` for, each with the
/// instant before which nothing more goes to it. APNs says this when one device (or channel) gets too
/// many pushes, so only that device waits: not its connection, app or batch. A later dispatch's push to
/// it waits too. The wait is the answer's `retry-after` when it has one, otherwise exponential in the
/// device's consecutive 429s (`policy`'s base and maximum delays, with jitter); a 2xx answer resets it.
///
/// One per delivery engine, shared by all its deliveries. At most `capacity` entries: an entry whose
/// wait ended more than `memory` ago is forgotten (its streak with it), and when full the oldest go.
final class TokenBackoff: Sendable {
    /// What APNs throttles: a device token or a channel, under one endpoint and topic (bundle id).
    struct Key: Hashable, Sendable {
        let scope: Scope
        let target: Target
    }

    /// An endpoint and bundle id: a token is throttled for the app it belongs to.
    struct Scope: Hashable, Sendable {
        let baseURL: String
        let bundleID: String

        init(_ destination: APNsDestination) {
            baseURL = destination.endpoint.baseURL
            bundleID = destination.bundleID
        }
    }

    enum Target: Hashable, Sendable {
        case device(PushToken)
        case channel(ChannelID)
    }

    private struct Entry {
        var notBefore: ContinuousClock.Instant
        /// 429s in a row, for the exponential wait.
        var streak: Int
    }

    private struct State {
        var entries: [Key: Entry] = [:]
    }

    let policy: RetryPolicy
    let capacity: Int
    let memory: Duration
    private let state = NIOLockedValueBox(State())

    init(policy: RetryPolicy, capacity: Int = 100_000, memory: Duration = .seconds(60)) {
        precondition(capacity > 0)
        self.policy = policy
        self.capacity = capacity
        self.memory = memory
    }

    /// The instant each key's push may go; nil where it may go now. A lazy collection's keys are made
    /// only when some device is backed off (rarely): a fan-out's pages need none of them.
    func notBefore(_ keys: some Collection<Key>, now: ContinuousClock.Instant = .now) -> [ContinuousClock.Instant?] {
        state.withLockedValue { state in
            guard !state.entries.isEmpty else { return Array(repeating: nil, count: keys.count) }
            return keys.map { key in state.entries[key].flatMap { $0.notBefore > now ? $0.notBefore : nil } }
        }
    }

    /// APNs answered 429 `TooManyRequests` for `key`: returns how long it waits from `now`.
    /// `retryAfter` (the answer's header) is honoured as given; without it the wait doubles with each
    /// 429 in a row. A wait already set that ends later is kept.
    @discardableResult
    func throttled(_ key: Key, retryAfter: Duration?, now: ContinuousClock.Instant = .now) -> Duration {
        state.withLockedValue { state in
            var entry = state.entries[key].flatMap { $0.notBefore + memory > now ? $0 : nil } ?? Entry(notBefore: now, streak: 0)
            entry.streak += 1
            let wait = retryAfter ?? policy.delay(afterAttempt: entry.streak)
            entry.notBefore = max(entry.notBefore, now + wait)
            if state.entries[key] == nil, state.entries.count >= capacity {
                Self.prune(&state, capacity: capacity, memory: memory, now: now)
            }
            state.entries[key] = entry
            return entry.notBefore - now
        }
    }

    /// APNs accepted pushes to `keys`: their streaks end. As for `notBefore`, a lazy collection's keys
    /// are made only when some device is backed off.
    func accepted(_ keys: some Collection<Key>) {
        guard !keys.isEmpty else { return }
        state.withLockedValue { state in
            guard !state.entries.isEmpty else { return }
            for key in keys { state.entries[key] = nil }
        }
    }

    /// How many tokens and channels it holds.
    var count: Int { state.withLockedValue { $0.entries.count } }

    /// Forgets the entries whose wait ended more than `memory` ago; if that frees too little, the
    /// tenth whose waits end first.
    private static func prune(_ state: inout State, capacity: Int, memory: Duration, now: ContinuousClock.Instant) {
        state.entries = state.entries.filter { $0.value.notBefore + memory > now }
        guard state.entries.count >= capacity else { return }
        let dropped = state.entries.sorted { $0.value.notBefore < $1.value.notBefore }.prefix(max(1, capacity / 10))
        for (key, _) in dropped { state.entries[key] = nil }
    }
}
