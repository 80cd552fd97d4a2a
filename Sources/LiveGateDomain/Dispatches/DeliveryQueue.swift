import APNsCore
import Foundation

/// The committed dispatches, as delivery workers see them: claimed under a lease, paged through,
/// progressed, finished. Every call after `claim` names the worker, and fails (returns false) once the
/// lease was lost to another worker, so two workers never both believe they own a dispatch. Four
/// roles: claims and leases (`DispatchLeases`), a fan-out's pages (`FanoutProgressRecords`), the
/// activity's broadcast channel (`DispatchChannels`), and what is done for many dispatches at a time,
/// every dispatch's end included (`DispatchBatchQueue`).
package typealias DeliveryQueue = DispatchLeases & FanoutProgressRecords & DispatchChannels & DispatchBatchQueue

/// Claiming due dispatches and holding them: the lease, and what stops one early.
package protocol DispatchLeases: Sendable {
    /// Up to `limit` dispatches due now: pending ones (scheduled ones once their time came), those whose
    /// worker's session is gone (a crashed worker's, within about a second), and those whose lease ran
    /// out (what a session cannot tell: a partition). `session` is the claiming worker's
    /// (`DeliveryWorkerSession`), recorded for others to test; nil leaves the lease alone to tell.
    /// `excluding` are the dispatches the worker is delivering now, never claimed twice. Each update or
    /// end claimed supersedes the older unfinished dispatches it covers; one that is itself stopped comes
    /// with `stop` set.
    func claim(
        worker: String, session: Int32?, limit: Int, lease: Duration, excluding: Set<UUID>
    )
        async throws -> [ClaimedDispatch]
    /// Gives the dispatch back to be claimed again at `retryAt` (APNs unreachable, shutting down).
    func release(_ id: UUID, worker: String, retryAt: Date) async throws -> Bool
    /// Which of these dispatches (being delivered) were superseded or cancelled since they were claimed.
    func stopRequests(among ids: [UUID]) async throws -> [UUID: DispatchStop]
}

/// A fan-out's devices, page by page, what each page did, and its end.
package protocol FanoutProgressRecords: Sendable {
    /// The next devices of the fan-out after `cursor`, in cursor order. Update tokens older than
    /// `tokenLifetime` are left out: their activity is over.
    func targets(
        of claimed: ClaimedDispatch, after cursor: Int64, limit: Int, tokenLifetime: Duration
    )
        async throws -> [FanoutTarget]
    /// The audience of a workspace's segment as it is now, for a start to it being delivered; nil when
    /// it was deleted.
    func segmentAudience(_ id: UUID, workspaceID: UUID) async throws -> JSONValue?
    /// How many devices the whole fan-out has (for a log entry when none can be sent).
    func targetCount(of claimed: ClaimedDispatch, tokenLifetime: Duration) async throws -> Int
    /// Whether anyone subscribes to the dispatch's `push.sent` or `push.failed` events: only then does
    /// a page keep each push for them (`FanoutProgress.pushes`).
    func wantsPushEvents(for dispatch: Dispatch) -> Bool
    /// Records a page of fan-out that is not its last (counts, cursor, token removals, log entries)
    /// atomically and extends the lease; says whether the dispatch was superseded or cancelled
    /// meanwhile. Its last page is recorded with its end (`DispatchBatchQueue.settle`).
    func recordProgress(
        _ claimed: ClaimedDispatch, worker: String, progress: FanoutProgress, lease: Duration
    )
        async throws -> RecordedProgress
}

/// The activity's broadcast channel, as a dispatch's delivery meets it.
package protocol DispatchChannels: Sendable {
    /// The channel an update or end of this dispatch's activity is broadcast on, if it has one.
    func broadcastTarget(of claimed: ClaimedDispatch) async throws -> BroadcastTarget?
    /// Records the dispatch's broadcast (and marks a channel APNs forgot as gone) with its log entries.
    func recordBroadcast(_ claimed: ClaimedDispatch, worker: String, record: BroadcastRecord) async throws -> Bool
    /// A scheduled whole-tag `end` is being sent: the activity's live channel starts its retention.
    func endChannel(of claimed: ClaimedDispatch, deletingAfter retention: Duration) async throws
    /// How many devices with a token under the dispatch's tag follow `channelID`: the token pushes a
    /// broadcast to it saves.
    func channelMembers(of claimed: ClaimedDispatch, channelID: ChannelID) async throws -> Int
}

extension FanoutProgressRecords {
    package func wantsPushEvents(for dispatch: Dispatch) -> Bool { false }
}

extension DispatchLeases {
    /// A claim without a session: only the lease tells when its dispatches may be taken over.
    package func claim(worker: String, limit: Int, lease: Duration) async throws -> [ClaimedDispatch] {
        try await claim(worker: worker, session: nil, limit: limit, lease: lease, excluding: [])
    }
}

/// What recording a page found.
package enum RecordedProgress: Sendable, Equatable {
    /// Recorded; `stop` says the dispatch was superseded or cancelled meanwhile.
    case recorded(stop: DispatchStop?)
    /// Another worker holds the dispatch now: nothing was recorded.
    case leaseLost
}
