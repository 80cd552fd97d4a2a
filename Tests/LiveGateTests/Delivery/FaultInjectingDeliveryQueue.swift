import APNsCore
import Foundation
import LiveGate
import NIOConcurrencyHelpers
import PostgresClient

/// The real queue over the test's PostgreSQL, with failures injected on the client side: the next
/// `failingProgress` page records throw `progressError`, and the next `failingReleases` releases throw
/// as if the database were away. Counts every release tried.
final class FaultInjectingDeliveryQueue: DeliveryQueue {
    private struct Faults {
        var failingProgress: Int
        var failingReleases: Int
        var releasesTried = 0
    }

    private let base: any DeliveryQueue
    private let progressError: any Error
    private let faults: NIOLockedValueBox<Faults>

    init(base: any DeliveryQueue, failingProgress: Int, progressError: any Error, failingReleases: Int) {
        self.base = base
        self.progressError = progressError
        self.faults = NIOLockedValueBox(Faults(failingProgress: failingProgress, failingReleases: failingReleases))
    }

    var releasesTried: Int { faults.withLockedValue { $0.releasesTried } }

    /// Uses up one of the failures `remaining` counts, if one is left.
    private func injects(_ remaining: WritableKeyPath<Faults, Int>) -> Bool {
        faults.withLockedValue { faults in
            guard faults[keyPath: remaining] > 0 else { return false }
            faults[keyPath: remaining] -= 1
            return true
        }
    }

    func claim(worker: String, session: Int32?, limit: Int, lease: Duration, excluding: Set<UUID>) async throws -> [ClaimedDispatch] {
        try await base.claim(worker: worker, session: session, limit: limit, lease: lease, excluding: excluding)
    }

    func targets(of claimed: ClaimedDispatch, after cursor: Int64, limit: Int, tokenLifetime: Duration) async throws -> [FanoutTarget] {
        try await base.targets(of: claimed, after: cursor, limit: limit, tokenLifetime: tokenLifetime)
    }

    func segmentAudience(_ id: UUID, workspaceID: UUID) async throws -> JSONValue? {
        try await base.segmentAudience(id, workspaceID: workspaceID)
    }

    func targetCount(of claimed: ClaimedDispatch, tokenLifetime: Duration) async throws -> Int {
        try await base.targetCount(of: claimed, tokenLifetime: tokenLifetime)
    }

    func recordProgress(
        _ claimed: ClaimedDispatch, worker: String, progress: FanoutProgress, lease: Duration
    ) async throws -> RecordedProgress {
        if injects(\.failingProgress) { throw progressError }
        return try await base.recordProgress(claimed, worker: worker, progress: progress, lease: lease)
    }

    func stopRequests(among ids: [UUID]) async throws -> [UUID: DispatchStop] {
        try await base.stopRequests(among: ids)
    }

    func supersededDeliveriesStillSending(before claimed: ClaimedDispatch) async throws -> Int {
        try await base.supersededDeliveriesStillSending(before: claimed)
    }

    func endChannel(of claimed: ClaimedDispatch, deletingAfter retention: Duration) async throws {
        try await base.endChannel(of: claimed, deletingAfter: retention)
    }

    func extendLease(_ id: UUID, worker: String, lease: Duration) async throws -> Bool {
        try await base.extendLease(id, worker: worker, lease: lease)
    }

    func finish(_ claimed: ClaimedDispatch, worker: String, status: DispatchState, log: [ActivityLogEntry]) async throws -> Bool {
        try await base.finish(claimed, worker: worker, status: status, log: log)
    }

    func broadcastTarget(of claimed: ClaimedDispatch) async throws -> BroadcastTarget? {
        try await base.broadcastTarget(of: claimed)
    }

    func channelMembers(of claimed: ClaimedDispatch, channelID: ChannelID) async throws -> Int {
        try await base.channelMembers(of: claimed, channelID: channelID)
    }

    func recordBroadcast(_ claimed: ClaimedDispatch, worker: String, record: BroadcastRecord) async throws -> Bool {
        try await base.recordBroadcast(claimed, worker: worker, record: record)
    }

    func release(_ id: UUID, worker: String, retryAt: Date) async throws -> Bool {
        faults.withLockedValue { $0.releasesTried += 1 }
        if injects(\.failingReleases) { throw PostgresError(code: .connectionFailed, message: "injected: the database is away") }
        return try await base.release(id, worker: worker, retryAt: retryAt)
    }
}
