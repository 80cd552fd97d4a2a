import Foundation

/// Who hears of the dispatch store's commits: this gateway's delivery engine. The store tells it once a
/// commit succeeded (never before, never after a failed one) and knows nothing of delivery: it asks for a
/// lease to write the dispatches sent now under, so the engine need not claim them, and says what it
/// committed and what the commit stopped.
package protocol DispatchCommitListener: Sendable {
    /// A lease for `count` dispatches sent now that a commit is about to write; nil: they are written
    /// pending, for a claim to find.
    func lease(for count: Int) -> CommitLease?
    /// The commit written under `lease` failed: nothing of it was written.
    func commitFailed(under lease: CommitLease)
    /// A commit succeeded: `leased` were written under `lease`, as a first claim would return them;
    /// `wrotePending` says whether it also wrote dispatches pending (scheduled, or with no lease).
    func committed(leased: [ClaimedDispatch], under lease: CommitLease?, wrotePending: Bool)
    /// A commit superseded these dispatches, or a `DELETE` cancelled one: deliveries of them stop.
    func stopped(_ ids: [UUID], because reason: DispatchStop)
}

/// What a commit writes into the dispatches it writes leased: the lease a claim would have taken.
package struct CommitLease: Sendable {
    package let worker: String
    /// The worker's session, as a claim records it (nil: only the lease tells when it may be taken over).
    package let session: Int32?
    package let lease: Duration
    /// The worker's session generation when it was granted: the delivery's ownership starts from it.
    package let generation: Int?
    /// How many dispatches it covers.
    package let count: Int

    package init(worker: String, session: Int32?, lease: Duration, generation: Int?, count: Int) {
        self.worker = worker
        self.session = session
        self.lease = lease
        self.generation = generation
        self.count = count
    }
}
