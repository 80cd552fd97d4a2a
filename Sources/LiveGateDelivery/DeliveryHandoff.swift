import Foundation
import LiveGateDomain
import NIOConcurrencyHelpers

/// Hands the updates, and starts to users, this gateway commits straight to its own delivery engine.
/// The commit writes them already leased to the engine's worker, under its session, so no claim has to
/// find them again: the engine takes them from here, in memory, and delivers them as it delivers what
/// it claims. A crash between the two loses nothing: the rows are leased to a session that ends with
/// the process, and another gateway takes them over as it takes over any claim of a dead worker.
///
/// The engine opens it while it runs and says how much it can take; a commit asks for a grant first. No
/// grant (no engine, stopping, the session lost, or as many dispatches waiting as pushes may be in
/// flight) and the commit writes its dispatches pending, for a claim to find.
package final class DeliveryHandoff: Sendable {
    /// A committed dispatch handed to the engine, with the session generation it was leased under (its
    /// stop flag is watched from its commit on, in `DispatchStopSignals`).
    struct Handed: Sendable {
        let claimed: ClaimedDispatch
        let generation: Int?
    }

    /// The engine's side: who it is, and how many more dispatches it can take now.
    struct Taker: Sendable {
        let worker: String
        let lease: Duration
        /// The session held now (nil while it is not), and how many dispatches the engine has room for.
        let state: @Sendable () -> (held: DeliveryLiveness.Held?, hasSession: Bool, room: Int)
    }

    private struct State {
        var taker: Taker?
        /// Granted to commits under way, not yet handed over or given back.
        var granted = 0
        var handed: [Handed] = []
        var lastBatch: ContinuousClock.Instant?
        /// A wake is scheduled for the end of the interval: no other is.
        var wakeScheduled = false
    }

    private let state = NIOLockedValueBox(State())
    private let doorbell: DeliveryDoorbell
    private let stops: DispatchStopSignals

    package init(doorbell: DeliveryDoorbell, stops: DispatchStopSignals) {
        self.doorbell = doorbell
        self.stops = stops
    }

    /// A lease for `count` dispatches about to be committed, or nil when the engine cannot take them.
    func grant(_ count: Int) -> CommitLease? {
        guard count > 0 else { return nil }
        return state.withLockedValue { state -> CommitLease? in
            guard let taker = state.taker else { return nil }
            let now = taker.state()
            if now.hasSession, now.held == nil { return nil }
            guard now.room - state.granted - state.handed.count >= count else { return nil }
            state.granted += count
            return CommitLease(
                worker: taker.worker, session: now.held?.session, lease: taker.lease, generation: now.held?.generation, count: count)
        }
    }

    /// The commit failed: nothing of the grant was written.
    func giveBack(_ grant: CommitLease) {
        state.withLockedValue { $0.granted -= grant.count }
    }

    /// The commit of `claimed` (leased under `grant`) succeeded: the engine delivers them. Their stop
    /// flags are watched from now, before any later commit can supersede them.
    /// Closed meanwhile (the engine stopped while the statement ran), they stay leased to its session,
    /// which ends with it: another gateway takes them over then.
    func hand(_ claimed: [ClaimedDispatch], under grant: CommitLease) {
        let open = state.withLockedValue { state -> Bool in
            state.granted -= grant.count
            guard state.taker != nil else { return false }
            // Watched before the next statement can run: one that supersedes them finds their flags.
            for dispatch in claimed { _ = stops.watch(dispatch.dispatch.id) }
            state.handed += claimed.map { Handed(claimed: $0, generation: grant.generation) }
            return true
        }
        if open { doorbell.wake() }
    }

    /// What `take` gives the engine.
    enum Taken: Sendable {
        case nothing
        /// Too soon after the last batch: take them after this wait.
        case later(Duration)
        case now([Handed])
    }

    /// What was handed over since the last batch, as one batch, at most one batch every `interval`
    /// unless `count` dispatches are waiting. Within the interval they gather: a batch's few round trips
    /// are shared by all of them (at the ceiling, 10 ms cut CPU per dispatch by about a fifth;
    /// docs/benchmarks.md). Below one commit per interval, each commit's dispatches go at once.
    func take(atMostEvery interval: Duration, atOnceFrom count: Int, now: ContinuousClock.Instant = .now) -> Taken {
        state.withLockedValue { state in
            guard !state.handed.isEmpty else { return .nothing }
            if let last = state.lastBatch, now - last < interval, state.handed.count < count {
                if state.wakeScheduled { return .nothing }
                state.wakeScheduled = true
                return .later(last + interval - now)
            }
            state.lastBatch = now
            state.wakeScheduled = false
            defer { state.handed = [] }
            return .now(state.handed)
        }
    }

    /// Wakes the engine to take what gathered.
    func wake() {
        state.withLockedValue { $0.wakeScheduled = false }
        doorbell.wake()
    }

    /// The engine runs: commits may hand it dispatches.
    func open(_ taker: Taker) {
        state.withLockedValue { $0.taker = taker }
    }

    /// The engine stops: no more grants; returns what was handed and not taken, for it to give back.
    func close() -> [Handed] {
        state.withLockedValue { state in
            state.taker = nil
            defer { state.handed = [] }
            return state.handed
        }
    }
}
