import APNsClient
import APNsCore
import Foundation
import LiveGateDomain
import Logging
import NIOConcurrencyHelpers
import UUIDText

/// Delivers one claimed dispatch as a fan-out, a batch of one: checks the app can send, broadcasts to
/// its channel, pages through its devices, sends each page (`PageSending`, the next page starting while
/// the current one's last answers come in), and records the pages in order, the last with the end
/// (`settle`, as a batch ends its dispatches), so a crash repeats at most two pages and loses nothing.
/// A dispatch superseded or cancelled meanwhile stops at its next batch and ends with what it sent
/// counted.
struct FanoutDelivery: DeliveryStage {
    let context: DeliveryContext
    /// Raised when the dispatch is superseded or cancelled; checked before every batch.
    let stop: DispatchStopFlag
    let stops: DispatchStopSignals
    /// This process's dispatches with pushes out now, this one among them while it is delivered.
    let sendingNow: DispatchesSending

    /// Delivers the dispatch; nil when another worker took it over meanwhile. What to do at each step is
    /// the dispatch's `DispatchLife`'s to say; this carries it out.
    func deliver(_ claimed: ClaimedDispatch, app: App?) async throws -> DispatchEnding? {
        var claimed = claimed
        if claimed.isBudgeted(by: app?.priorityBudget) { claimed.priorityBudget = app?.priorityBudget }
        let dispatch = claimed.dispatch
        var life = DispatchLife(claimed, retry: settings.handBackRetry, supersedes: settings.supersedes)
        let readiness: DispatchLife.AppReadiness = app == nil ? .deleted : app?.destination == nil ? .noCredential : .ready
        var action = life.begin(app: readiness, stop: stop.raised, now: Date())
        if action == .readAudience {
            switch try await audience(of: dispatch) {
            case .success(let audience):
                claimed.audience = audience
                action = life.audienceRead(app: readiness)
            case .failure(let unavailable):
                action = life.audienceUnavailable(entry: unavailable.entry)
            }
        }
        guard let destination = app?.destination, action == .send || action.isPreparation else {
            return try await carryOut(action, claimed)
        }
        let leaseLost = NIOLockedValueBox(false)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await keepLeases([dispatch.id]) { _ in leaseLost.withLockedValue { $0 = true } } }
            defer { group.cancelAll() }
            return try await deliverLeased(claimed, life: &life, action, to: destination, leaseLost: leaseLost)
        }
    }

    /// What follows once the lease is kept renewed: the preparations, the broadcast, then the pages.
    private func deliverLeased(
        _ claimed: ClaimedDispatch, life: inout DispatchLife, _ action: DispatchLife.Action, to destination: APNsDestination,
        leaseLost: NIOLockedValueBox<Bool>
    ) async throws -> DispatchEnding? {
        let dispatch = claimed.dispatch
        if case .prepare(let steps) = action {
            for step in steps {
                switch step {
                case .endChannel: try await queue.endChannel(of: claimed, deletingAfter: settings.channelRetention)
                case .waitForOlder:
                    let superseded = SupersededWait(context: context, stops: stops, sendingNow: sendingNow)
                    let waiting = try await superseded.olderStillSending(before: [claimed])
                    if !waiting.isEmpty { await superseded.wait(for: waiting, of: [claimed], flags: [dispatch.id: stop]) }
                }
            }
            _ = life.prepared()
        }
        let owned = try await stillOwns(dispatch.id, leaseLost: leaseLost)
        if let notOwned = life.ownership(confirmed: owned, leaseLost: leaseLost.withLockedValue { $0 }, now: Date()) {
            return try await carryOut(notOwned, claimed)
        }
        let broadcast = try await broadcast(claimed, to: destination)
        var deliveredTo: ChannelID?
        if case .recorded(let leaseKept, let credentialRejected, let entry, let channel) = broadcast {
            if let ended = life.broadcastRecorded(leaseKept: leaseKept, credentialRejected: credentialRejected, entry: entry) {
                return try await carryOut(ended, claimed)
            }
            deliveredTo = channel
        }
        if let stop = stop.raised { return try await carryOut(life.stopped(stop), claimed) }
        var besideChannel = claimed
        if let channelID = deliveredTo {
            besideChannel.deliveredBroadcastChannel = channelID
            GatewayMetrics.channelMemberPushesSkipped(try await queue.channelMembers(of: claimed, channelID: channelID))
        }
        return try await fanOut(besideChannel, life: &life, to: destination, leaseLost: leaseLost)
    }

    /// Two pages overlap: the next page's pushes start while the current page's last answers are still
    /// coming, so pushes in flight do not drain to zero at every page boundary. Pages are recorded in
    /// order, each once all its answers are in. The page after those two is read while the first is
    /// recorded, so reading a page (an audience's costs more than a tag's) is off the path between two
    /// pages' sends.
    /// A dispatch whose broadcast reached its channel logs no "no token registered" entry: its devices
    /// may all be subscribers of the channel.
    /// An update under its app's priority budget is counted once its first page is read: that page says
    /// which budgets its devices are held to.
    private func fanOut(
        _ claimed: ClaimedDispatch, life: inout DispatchLife, to destination: APNsDestination,
        leaseLost leaseLostBox: NIOLockedValueBox<Bool>
    ) async throws -> DispatchEnding? {
        var claimed = claimed
        let dispatch = claimed.dispatch
        let leaseLost = { leaseLostBox.withLockedValue { $0 } }
        var pageStart = claimed.fanoutCursor
        let first = try await nextPage(claimed, after: pageStart)
        guard let firstEnd = first.last?.cursor else {
            return try await carryOut(life.noTargets(broadcastDelivered: claimed.deliveredBroadcastChannel != nil), claimed)
        }
        let owned = try await stillOwns(dispatch.id, leaseLost: leaseLostBox)
        if let notOwned = life.ownership(confirmed: owned, leaseLost: leaseLost(), now: Date()) {
            return try await carryOut(notOwned, claimed)
        }
        if let budget = claimed.priorityBudget {
            let count = PriorityCount(dispatch: dispatch, budget: budget, targets: first)
            claimed.priorityStanding = try await PriorityCounting.standings(of: [(claimed, count)], queue: queue)[dispatch.id]
        }
        let standing = claimed.priorityStanding
        var sending = startSending(first, of: dispatch, standing: standing, to: destination)
        var sendingPage = first
        var sendingEnd = firstEnd
        // Read ahead; a delivery that ends first drops it (a read, nothing to undo).
        var prefetched: Task<[FanoutTarget], any Error>?
        defer { prefetched?.cancel() }
        while true {
            let following: [FanoutTarget]
            do {
                if let ahead = prefetched {
                    prefetched = nil
                    following = try await ahead.value
                } else {
                    following = try await nextPage(claimed, after: sendingEnd)
                }
            } catch {
                _ = await sending.value
                throw error
            }
            var goOn = !following.isEmpty && !isStopping() && !leaseLost() && stop.raised == nil
            if goOn {
                do {
                    goOn = try await stillOwns(dispatch.id, leaseLost: leaseLostBox)
                } catch {
                    _ = await sending.value
                    throw error
                }
            }
            let next = goOn ? startSending(following, of: dispatch, standing: standing, to: destination) : nil
            if next != nil, following.count >= settings.pageSize, let followingEnd = following.last?.cursor {
                prefetched = Task { [claimed] in try await nextPage(claimed, after: followingEnd) }
            }
            let outcome = await outcomeOnceAPNsIsBack(
                await sending.value, page: sendingPage, overlapping: next, of: dispatch, standing: standing, to: destination)
            let after: DispatchLife.FollowingPage =
                next != nil ? .sending : following.isEmpty ? .none : leaseLost() ? .leaseLost : .notResumedHere
            let action = life.pageAnswered(
                progress: outcome.progress, credentialProblem: outcome.credentialProblem, unreachable: outcome.unreachable != nil,
                pageStart: pageStart, stop: stop.raised, following: after, now: Date())
            guard case .record(let progress) = action else {
                _ = await next?.value
                return try await carryOut(action, claimed, unreachable: outcome.unreachable)
            }
            if let ended = life.recorded(leaseKept: try await record(claimed, progress)) {
                _ = await next?.value
                return try await carryOut(ended, claimed)
            }
            guard let next, let followingEnd = following.last?.cursor else {
                preconditionFailure("a dispatch goes on only while its next page is going out")
            }
            pageStart = sendingEnd
            sending = next
            sendingPage = following
            sendingEnd = followingEnd
        }
    }

    /// Carries out an end `DispatchLife` decided, as every delivery ends a dispatch: one settlement (the
    /// progress it names, its status or hand-back, its log entries) in one transaction; nil when the
    /// lease turns out lost.
    private func carryOut(
        _ action: DispatchLife.Action, _ claimed: ClaimedDispatch, unreachable: PushResult.RetriableProblem? = nil
    ) async throws -> DispatchEnding? {
        guard let settlement = try await settlement(action, of: claimed, unreachable: unreachable) else { return nil }
        return try await queue.settle(settlement, worker: worker) ? settlement.ending : nil
    }

    /// A page none of whose pushes reached APNs is sent again at once when the overlapping page got
    /// through: APNs came back meanwhile. Handed back instead, the dispatch would resume from this page
    /// and send the overlapping page, already delivered, a second time.
    private func outcomeOnceAPNsIsBack(
        _ outcome: PageOutcome, page: [FanoutTarget], overlapping next: Task<PageOutcome, Never>?,
        of dispatch: Dispatch, standing: PriorityStanding?, to destination: APNsDestination
    ) async -> PageOutcome {
        guard outcome.unreachable != nil, stop.raised == nil, let next, await next.value.unreachable == nil else {
            return outcome
        }
        var again = await send(page, of: dispatch, standing: standing, to: destination)
        again.progress.retried += outcome.progress.retried
        return again
    }

    private func startSending(
        _ page: [FanoutTarget], of dispatch: Dispatch, standing: PriorityStanding?, to destination: APNsDestination
    ) -> Task<PageOutcome, Never> {
        Task { await send(page, of: dispatch, standing: standing, to: destination) }
    }

    private func send(
        _ page: [FanoutTarget], of dispatch: Dispatch, standing: PriorityStanding?, to destination: APNsDestination
    ) async -> PageOutcome {
        let outgoing = OutgoingPage(dispatch: dispatch, targets: page, stop: stop, standing: standing)
        return await PageSending(context: context).send([outgoing], to: destination)[0]
    }

    private func nextPage(_ claimed: ClaimedDispatch, after cursor: Int64) async throws -> [FanoutTarget] {
        try await queue.targets(of: claimed, after: cursor, limit: settings.pageSize, tokenLifetime: settings.tokenLifetime)
    }

    /// Records a page; false when the lease was lost. A stop the record brings back is raised.
    private func record(_ claimed: ClaimedDispatch, _ progress: FanoutProgress) async throws -> Bool {
        switch try await queue.recordProgress(claimed, worker: worker, progress: progress, lease: settings.lease) {
        case .leaseLost:
            return false
        case .recorded(let reason):
            if let reason { stop.raise(reason) }
            return true
        }
    }

    /// Whether this worker may start sending more of the dispatch (`DispatchOwnership`); a lease found
    /// lost is noted for the rest of the delivery.
    private func stillOwns(_ id: UUID, leaseLost: NIOLockedValueBox<Bool>) async throws -> Bool {
        try await ownership.confirm(isStopping: isStopping) {
            let kept = try await queue.extendLease(id, worker: worker, lease: settings.lease)
            if !kept { leaseLost.withLockedValue { $0 = true } }
            return kept
        }
    }
}
