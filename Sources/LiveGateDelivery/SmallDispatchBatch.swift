import APNsClient
import APNsCore
import Foundation
import LiveGateDomain
import Logging
import UUIDText

/// Delivers many small dispatches together: their pushes go out as one batch per app (one hand-over to
/// the HTTP/2 client for all of them), and they are recorded and ended together, in one transaction.
/// Each keeps a fan-out's guarantees: its lease (renewed for all at once) and session, newest
/// state first (a dispatch waits for an older superseded delivery to its devices that is still sending;
/// one superseded or cancelled before its pushes go sends none), its own counts and log entries, a
/// dispatch whose devices APNs could not be reached for handed back for later.
struct SmallDispatchBatch: DeliveryStage {
    let context: DeliveryContext
    let stops: DispatchStopSignals
    /// This process's dispatches with pushes out now: a superseded one not among them is stopped rather
    /// than waited for.
    let sendingNow: DispatchesSending

    /// Delivers the batch; returns how each dispatch ended (nil for those whose lease was lost).
    /// `flags`: each dispatch's stop flag, watched by the caller since the claim.
    func deliver(_ batch: [SmallDispatch], flags: [UUID: DispatchStopFlag]) async throws -> [UUID: DispatchEnding] {
        let ids = batch.map(\.id)
        let owned = try await ownership.confirm(isStopping: isStopping) {
            try await queue.extendLeases(ids, worker: worker, lease: settings.lease).count == ids.count
        }
        guard owned else { return try await handBack(batch) }
        let settlements = try await withThrowingTaskGroup(of: [DispatchSettlement]?.self) { group in
            group.addTask {
                await keepLeases(ids)
                return nil
            }
            defer { group.cancelAll() }
            var settlements: [DispatchSettlement] = []
            var sendable: [SmallDispatch] = []
            var mayWait: [SmallDispatch] = []
            let now = Date()
            for var small in batch {
                switch small.life.begin(app: .ready, stop: flags[small.id]?.raised, now: now) {
                case .send:
                    sendable.append(small)
                case .prepare(let steps):
                    // The plan sends only dispatches that at most wait for older deliveries this way.
                    precondition(steps == [.waitForOlder], "\(steps) is not for a small dispatch")
                    _ = small.life.prepared()
                    sendable.append(small)
                    mayWait.append(small)
                case let ended:
                    settlements.append(await settlementWithoutFail(ended, of: small.claimed))
                }
            }
            let superseded = SupersededWait(context: context, stops: stops, sendingNow: sendingNow)
            let waiting = mayWait.isEmpty ? [:] : try await superseded.olderStillSending(before: mayWait.map(\.claimed))
            group.addTask { await send(sendable.filter { waiting[$0.id] == nil }, flags: flags) }
            if !waiting.isEmpty {
                group.addTask {
                    await superseded.wait(for: waiting, of: sendable.map(\.claimed), flags: flags)
                    return await send(sendable.filter { waiting[$0.id] != nil }, flags: flags)
                }
            }
            for try await sent in group {
                if let sent { settlements += sent }
                if settlements.count == batch.count { break }
            }
            return settlements
        }
        let settled = try await queue.settle(settlements, worker: worker)
        var endings: [UUID: DispatchEnding] = [:]
        for settlement in settlements where settled.contains(settlement.claimed.dispatch.id) {
            endings[settlement.claimed.dispatch.id] = settlement.ending
        }
        return endings
    }

    /// Sends the dispatches' pushes, one batch per app, and settles each dispatch by its answers.
    private func send(_ dispatches: [SmallDispatch], flags: [UUID: DispatchStopFlag]) async -> [DispatchSettlement] {
        let byApp = Dictionary(grouping: dispatches) { $0.claimed.dispatch.appID }
        return await withTaskGroup(of: [DispatchSettlement].self) { group in
            for (_, appDispatches) in byApp {
                guard let destination = appDispatches[0].destination else { continue }
                group.addTask { await send(appDispatches, to: destination, flags: flags) }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
    }

    private func send(
        _ dispatches: [SmallDispatch], to destination: APNsDestination, flags: [UUID: DispatchStopFlag]
    ) async -> [DispatchSettlement] {
        // Stopped meanwhile (superseded or cancelled): nothing of it goes. The others are sending until
        // their answers, and any resent in rounds, are in.
        let goingIDs = sendingNow.begin(dispatches.map(\.id)) { flags[$0] }
        defer { sendingNow.end(Array(goingIDs)) }
        var going: [(small: SmallDispatch, page: OutgoingPage)] = []
        var settlements: [DispatchSettlement] = []
        for var small in dispatches {
            guard goingIDs.contains(small.id), let flag = flags[small.id] else {
                let stopped = small.life.stopped(flags[small.id]?.raised ?? .cancelled)
                settlements.append(await settlementWithoutFail(stopped, of: small.claimed))
                continue
            }
            going.append(
                (
                    small,
                    OutgoingPage(
                        dispatch: small.claimed.dispatch, targets: small.targets, stop: flag, standing: small.claimed.priorityStanding)
                ))
        }
        let outcomes = await PageSending(context: context).send(going.map(\.page), to: destination)
        for (sent, outcome) in zip(going, outcomes) {
            var small = sent.small
            settlements.append(await settle(&small, outcome, stop: sent.page.stop))
        }
        return settlements
    }

    /// How a dispatch ends after its answers: its only page, and last, answered as a fan-out's page is.
    private func settle(_ small: inout SmallDispatch, _ outcome: PageOutcome, stop: DispatchStopFlag) async -> DispatchSettlement {
        let action =
            small.targets.isEmpty
            ? small.life.noTargets(broadcastDelivered: false)
            : small.life.pageAnswered(
                progress: outcome.progress, credentialProblem: outcome.credentialProblem, unreachable: outcome.unreachable != nil,
                pageStart: small.claimed.fanoutCursor, stop: stop.raised, following: .none, now: Date())
        return await settlementWithoutFail(action, of: small.claimed, unreachable: outcome.unreachable)
    }

    /// A settlement for every dispatch of the batch, which waits for all of them: only a dispatch
    /// without a credential reads the database for its entries, and a small one has one; should that
    /// ever fail, the dispatch goes back, due now.
    private func settlementWithoutFail(
        _ action: DispatchLife.Action, of claimed: ClaimedDispatch, unreachable: PushResult.RetriableProblem? = nil
    ) async -> DispatchSettlement {
        let settlement = try? await settlement(action, of: claimed, unreachable: unreachable)
        return settlement
            ?? DispatchSettlement(claimed, .handedBack(retryAt: Date()))
    }

    /// The session was lost and the batch could not be proven this worker's: each dispatch still leased
    /// to it goes back, due now; the others were taken over.
    private func handBack(_ batch: [SmallDispatch]) async throws -> [UUID: DispatchEnding] {
        var endings: [UUID: DispatchEnding] = [:]
        let now = Date()
        for small in batch where try await queue.release(small.id, worker: worker, retryAt: now) {
            endings[small.id] = .handedBack(retryAt: now)
        }
        return endings
    }
}
