import APNsCore
import Foundation
import LiveGateDomain
import Logging
import NIOConcurrencyHelpers
import UUIDText

extension DeliveryEngine {
    /// Lets this gateway's commits hand over what they write, within the pushes that may be in flight.
    func openHandoff() {
        guard let handoff else { return }
        let maximum = settings.maximumPushesInFlight
        handoff.open(
            DeliveryHandoff.Taker(worker: worker, lease: settings.lease) { [self] in
                let room = isStopping ? 0 : maximum - delivering.withLockedValue { $0.small.count }
                return (held: liveness?.held, hasSession: liveness != nil, room: room)
            })
    }

    /// Starts delivering what commits handed over since the last turn, as a claim's dispatches are:
    /// first what each supersedes (as its claim would have), then by shape. At most one batch every
    /// `handoverInterval`, unless a batch's worth is waiting (`DeliveryHandoff.take`).
    func startHandedOver(in group: inout DiscardingTaskGroup) async {
        guard let handoff else { return }
        let handed: [DeliveryHandoff.Handed]
        switch handoff.take(atMostEvery: settings.handoverInterval, atOnceFrom: settings.pushesPerBatch) {
        case .nothing: return
        case .later(let wait):
            // Rings and wakes meanwhile do not bring it forward: one wake, when the interval is over.
            group.addTask {
                try? await Task.sleep(for: wait)
                handoff.wake()
            }
            return
        case .now(let taken): handed = taken
        }
        var claimed = handed.map(\.claimed)
        let ids = Set(claimed.map(\.dispatch.id))
        do {
            // As at a claim, starts supersede nothing (`PostgresDeliveryQueue.claim`).
            let superseded = try await queue.supersedeOnHandover(
                claimed.filter { $0.dispatch.event != .start }.map(\.dispatch))
            for index in claimed.indices where superseded[claimed[index].dispatch.id] != nil {
                claimed[index].stop = .superseded
            }
            for older in superseded.keys where !ids.contains(older) { stops.stop(older, because: .superseded) }
        } catch {
            // Leased to this worker and not started: back to pending, to be claimed (and superseded) anew.
            logger.warning(
                "could not start dispatches handed over at their commit: handed back",
                metadata: ["dispatches": "\(claimed.count)", "error": "\(error)"])
            for id in ids { stops.unwatch(id) }
            group.addTask {
                for id in ids { _ = await self.handBackOnceTheDatabaseAnswers(id, dueAt: Date()) }
                // Never started, so not among those being delivered: a claim finds them at once.
                self.doorbell.ring()
            }
            return
        }
        let byGeneration = Dictionary(grouping: zip(claimed, handed.map(\.generation)), by: { $0.1 })
        for (generation, dispatches) in byGeneration {
            let busy = delivering.withLockedValue { $0 }
            let plan = await plan(dispatches.map(\.0), freeSlots: settings.concurrentDispatches - busy.large.count)
            // Those given back for want of a free slot are no longer this process's to watch.
            let started = Set(plan.small.map(\.id) + plan.large.map(\.dispatch.id))
            for dispatch in dispatches where !started.contains(dispatch.0.dispatch.id) { stops.unwatch(dispatch.0.dispatch.id) }
            start(plan, claimedUnder: generation, in: &group)
        }
    }

    /// Stopping: what was handed over and not started goes back to pending, for any gateway to claim.
    func giveBackHandedOver() async {
        guard let handoff else { return }
        let left = handoff.close().map(\.claimed.dispatch.id)
        guard !left.isEmpty else { return }
        for id in left { stops.unwatch(id) }
        do {
            try await queue.unclaim(left, worker: worker, retryAt: Date())
        } catch {
            // Still leased to this worker's session, which ends with it: another gateway takes them over.
            logger.warning(
                "could not give back dispatches handed over at their commit",
                metadata: ["dispatches": "\(left.count)", "error": "\(error)"])
        }
    }
}
