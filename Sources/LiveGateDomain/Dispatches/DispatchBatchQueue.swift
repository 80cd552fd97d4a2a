import Foundation

/// The committed dispatches many at a time, one round trip for all of them: a batch of small
/// dispatches, or a fan-out as a batch of one. Every call names the worker, and leaves alone the
/// dispatches whose lease it no longer holds.
package protocol DispatchBatchQueue: Sendable {
    /// The first devices of each dispatch's fan-out, at most `limit` each, after its cursor, in one round
    /// trip; and whether the dispatch's activity has a live broadcast channel.
    func firstTargets(
        of claimed: [ClaimedDispatch], limit: Int, tokenLifetime: Duration
    )
        async throws -> [UUID: BatchTargets]
    /// The older, superseded deliveries to these dispatches' devices that are still under way (by any
    /// gateway), whether the newer dispatch superseded them or one it superseded did, with the worker of
    /// each.
    func supersededStillSending(before claimed: [ClaimedDispatch]) async throws -> [SupersededDelivery]
    /// Keeps the leases of dispatches under way; returns those still this worker's.
    func extendLeases(_ ids: [UUID], worker: String, lease: Duration) async throws -> Set<UUID>
    /// Dispatches handed over at their commit (`DeliveryHandoff`) supersede what a claim of them would
    /// have made them supersede (`claim`): what their commit could not see (the same activity's
    /// dispatches of the same statement, or committed beside it by another gateway), each of them
    /// included when a newer dispatch of its activity is already being delivered. Returns each dispatch
    /// superseded, with the one that did.
    func supersedeOnHandover(_ handed: [Dispatch]) async throws -> [UUID: UUID]
    /// Gives back dispatches claimed and not started (no delivery slot was free for them): pending
    /// again from `retryAt`, with the claim not counted as an attempt.
    func unclaim(_ ids: [UUID], worker: String, retryAt: Date) async throws
    /// Counts budgeted updates (an app's priority budget, `ClaimedDispatch.priorityBudget`) against their
    /// activities' last hour, once each however often it is claimed, and returns where each stood.
    /// Writes the log entry of each first lowering of an activity's hour with the count.
    func countPriority(_ counts: [PriorityCount]) async throws -> [UUID: PriorityStanding]
    /// Records and ends (or hands back) every settled dispatch in one transaction: counts, cursor,
    /// token removals, log entries. Returns the dispatches settled; the others' leases were lost, and
    /// nothing of theirs was written. Every delivery ends its dispatches this way.
    func settle(_ settlements: [DispatchSettlement], worker: String) async throws -> Set<UUID>
}

extension DispatchBatchQueue {
    /// Keeps one dispatch's lease; false when another worker holds it now.
    package func extendLease(_ id: UUID, worker: String, lease: Duration) async throws -> Bool {
        try await extendLeases([id], worker: worker, lease: lease).contains(id)
    }

    /// Ends one dispatch (`settle`); false when another worker holds it now.
    package func settle(_ settlement: DispatchSettlement, worker: String) async throws -> Bool {
        try await settle([settlement], worker: worker).contains(settlement.claimed.dispatch.id)
    }
}

/// A dispatch's first devices (`DispatchBatchQueue.firstTargets`).
package struct BatchTargets: Sendable, Equatable {
    package var targets: [FanoutTarget]
    /// The activity has a broadcast channel: the dispatch is also a broadcast.
    package var hasChannel: Bool

    package init(targets: [FanoutTarget] = [], hasChannel: Bool = false) {
        self.targets = targets
        self.hasChannel = hasChannel
    }
}

/// How one dispatch of a batch ends: what it achieved, and whether it is over or handed back.
package struct DispatchSettlement: Sendable {
    package let claimed: ClaimedDispatch
    package let ending: DispatchEnding
    /// Counts, cursor, tokens to remove or retire, and the pushes' log entries.
    package let progress: FanoutProgress
    /// Entries about the dispatch as a whole (no token, gave up), written with it.
    package let log: [ActivityLogEntry]

    /// `progress` nil: nothing sent since the claim (the cursor where the claim found it).
    package init(_ claimed: ClaimedDispatch, _ ending: DispatchEnding, progress: FanoutProgress? = nil, log: [ActivityLogEntry] = []) {
        self.claimed = claimed
        self.ending = ending
        self.progress = progress ?? FanoutProgress(cursor: claimed.fanoutCursor)
        self.log = log
    }
}

/// An older delivery superseded by a newer dispatch, still under way (`status = 'delivering'`).
package struct SupersededDelivery: Sendable, Equatable {
    package let newer: UUID
    package let older: UUID
    /// The worker delivering the older one.
    package let worker: String?

    package init(newer: UUID, older: UUID, worker: String?) {
        self.newer = newer
        self.older = older
        self.worker = worker
    }
}
