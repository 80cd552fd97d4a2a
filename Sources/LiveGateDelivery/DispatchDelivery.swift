import APNsClient
import APNsCore
import Foundation
import LiveGateDomain
import Logging
import NIOConcurrencyHelpers
import UUIDText

/// Delivers one claimed dispatch: checks the app can send, pages through its devices, sends each page's
/// pushes concurrently (the next page starting while the current one's last answers come in), and
/// records the pages in order, so a crash repeats at most two pages and loses nothing. A dispatch
/// superseded or cancelled meanwhile stops at its next batch and ends with what it sent counted.
struct DispatchDelivery: DeliveryStage {
    /// What a recorded page leaves the delivery to do.
    private enum PageStep {
        case goOn
        /// The dispatch ended (nil: its lease was lost to another worker).
        case ended(DispatchEnding?)
    }

    let context: DeliveryContext
    /// Raised when the dispatch is superseded or cancelled; checked before every batch.
    let stop: DispatchStopFlag

    /// Delivers the dispatch; nil when another worker took it over meanwhile.
    func deliver(_ claimed: ClaimedDispatch, app: App?) async throws -> DispatchEnding? {
        var claimed = claimed
        let dispatch = claimed.dispatch
        if let stop = claimed.stop {
            return try await finish(claimed, stop.status)
        }
        guard let app else {
            logger.warning("dispatch dropped: its app was deleted", metadata: ["dispatch_id": "\(dispatch.id.lowercasedText)"])
            return try await finish(claimed, .failed)
        }
        if dispatch.expiresAt < Date() {
            return try await finish(claimed, .failed, log: [DeliveryLogEntries.expired(dispatch)])
        }
        if dispatch.audience != nil {
            switch try await audience(of: dispatch) {
            case .success(let audience): claimed.audience = audience
            case .failure(let unavailable): return try await finish(claimed, .failed, log: unavailable.entry.map { [$0] } ?? [])
            }
        }
        guard let destination = app.destination else {
            let devices = try await queue.targetCount(of: claimed, tokenLifetime: settings.tokenLifetime)
            return try await finish(claimed, .failed, log: [DeliveryLogEntries.noCredential(dispatch, devices: devices)])
        }
        let leaseLost = NIOLockedValueBox(false)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await keepLease(dispatch.id, lost: leaseLost) }
            defer { group.cancelAll() }
            if dispatch.event == .end, dispatch.externalID == nil, dispatch.sendAt != nil {
                // A scheduled end: the activity, and its channel, end now rather than when it was accepted.
                try await queue.endChannel(of: claimed, deletingAfter: settings.channelRetention)
            }
            if dispatch.event != .start || dispatch.audience != nil, settings.supersedes {
                await waitForSupersededToStop(claimed)
            }
            guard try await stillOwns(dispatch.id, leaseLost: leaseLost) else {
                return leaseLost.withLockedValue { $0 } ? nil : try await release(dispatch.id, at: Date())
            }
            let broadcast = try await broadcast(claimed, to: destination)
            if case .ended(let ending) = broadcast { return ending }
            if let stop = stop.raised { return try await finish(claimed, stop.status) }
            var besideChannel = claimed
            if case .delivered(let channelID) = broadcast {
                besideChannel.deliveredBroadcastChannel = channelID
                GatewayMetrics.channelMemberPushesSkipped(try await queue.channelMembers(of: claimed, channelID: channelID))
            }
            return try await fanOut(
                besideChannel, to: destination, broadcastDelivered: besideChannel.deliveredBroadcastChannel != nil,
                leaseLost: leaseLost)
        }
    }

    /// Two pages overlap: the next page's pushes start while the current page's last answers are still
    /// coming, so pushes in flight do not drain to zero at every page boundary. Pages are recorded in
    /// order, each once all its answers are in. The page after those two is read while the first is
    /// recorded, so reading a page (an audience's costs more than a tag's) is off the path between two
    /// pages' sends.
    /// A dispatch whose broadcast reached its channel logs no "no token registered" entry: its devices
    /// may all be subscribers of the channel.
    private func fanOut(
        _ claimed: ClaimedDispatch, to destination: APNsDestination, broadcastDelivered: Bool,
        leaseLost leaseLostBox: NIOLockedValueBox<Bool>
    ) async throws -> DispatchEnding? {
        let dispatch = claimed.dispatch
        let leaseLost = { leaseLostBox.withLockedValue { $0 } }
        var cursor = claimed.fanoutCursor
        let first = try await nextPage(claimed, after: cursor)
        guard let firstEnd = first.last?.cursor else {
            let nobody = cursor == 0 && !broadcastDelivered && !claimed.broadcastRecorded
            return try await finish(claimed, .done, log: nobody ? [DeliveryLogEntries.noTokens(dispatch)] : [])
        }
        guard try await stillOwns(dispatch.id, leaseLost: leaseLostBox) else {
            return leaseLost() ? nil : try await release(dispatch.id, at: Date())
        }
        var sending = startSending(first, of: dispatch, to: destination)
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
            let next = goOn ? startSending(following, of: dispatch, to: destination) : nil
            if next != nil, following.count >= settings.pageSize, let followingEnd = following.last?.cursor {
                prefetched = Task { try await nextPage(claimed, after: followingEnd) }
            }
            let outcome = await outcomeOnceAPNsIsBack(
                await sending.value, page: sendingPage, overlapping: next, of: dispatch, to: destination)
            if case .ended(let ending) = try await settle(outcome, claimed, pageStart: cursor) {
                _ = await next?.value
                return ending
            }
            if let reason = stop.raised {
                // What the overlapping page sent before the stop is counted too.
                if let next, case .ended(let ending) = try await settle(await next.value, claimed, pageStart: sendingEnd) {
                    return ending
                }
                return try await finish(claimed, reason.status)
            }
            cursor = sendingEnd
            guard let next, let followingEnd = following.last?.cursor else {
                if following.isEmpty { return try await finish(claimed, .done) }
                if leaseLost() { return nil }
                return try await release(dispatch.id, at: Date())
            }
            sending = next
            sendingPage = following
            sendingEnd = followingEnd
        }
    }

    /// A page none of whose pushes reached APNs is sent again at once when the overlapping page got
    /// through: APNs came back meanwhile. Handed back instead, the dispatch would resume from this page
    /// and send the overlapping page, already delivered, a second time.
    private func outcomeOnceAPNsIsBack(
        _ outcome: PageOutcome, page: [FanoutTarget], overlapping next: Task<PageOutcome, Never>?,
        of dispatch: Dispatch, to destination: APNsDestination
    ) async -> PageOutcome {
        guard outcome.unreachable != nil, stop.raised == nil, let next, await next.value.unreachable == nil else {
            return outcome
        }
        var again = await send(page, of: dispatch, to: destination)
        again.progress.retried += outcome.progress.retried
        return again
    }

    private func startSending(
        _ page: [FanoutTarget], of dispatch: Dispatch, to destination: APNsDestination
    ) -> Task<PageOutcome, Never> {
        Task { await send(page, of: dispatch, to: destination) }
    }

    /// Records a page as its verdict says, and ends the dispatch when that says so; `.goOn` otherwise
    /// (unless the page's record raised the stop).
    private func settle(_ outcome: PageOutcome, _ claimed: ClaimedDispatch, pageStart: Int64) async throws -> PageStep {
        switch PageVerdict(outcome, of: claimed, pageStart: pageStart, stopped: stop.raised, retry: settings.handBackRetry) {
        case .record(let progress):
            return try await record(claimed, progress) ? .goOn : .ended(nil)
        case .finish(let status, let progress, let log):
            guard try await record(claimed, progress) else { return .ended(nil) }
            return .ended(try await finish(claimed, status, log: log))
        case .handBack(let retryAt, let progress):
            guard try await record(claimed, progress) else { return .ended(nil) }
            PageVerdict.logHandBack(of: claimed, retryAt: retryAt, to: logger)
            return .ended(try await release(claimed.dispatch.id, at: retryAt))
        }
    }

    /// Sends a page in batches, all at once (the in-flight limit paces them), and tallies the answers.
    /// Pushes left unanswered while others got through are sent again before the page is tallied
    /// (`UnansweredResend`).
    private func send(_ page: [FanoutTarget], of dispatch: Dispatch, to destination: APNsDestination) async -> PageOutcome {
        var ids = APNsIDGenerator()
        let pushes = dispatch.pushes(to: page, ids: &ids)
        let sent = await sending.send(pushes, inBatchesOf: settings.pushesPerBatch, to: destination, unless: stop)
        var results = zip(sent, pushes).map { result, push in result.map { SentPush(result: $0.result, retries: $0.retries, push: push) } }
        await UnansweredResend(context: context)
            .resend(&results, of: dispatch, to: destination, unless: stop)
        return PageOutcome(page: page, results: results, dispatch: dispatch)
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

    /// The dispatches this one superseded, directly or through one it superseded, may still have pushes
    /// out (another gateway learns of it within a second): wait for them, briefly, so a device never gets
    /// the older state after this one.
    private func waitForSupersededToStop(_ claimed: ClaimedDispatch) async {
        let deadline = ContinuousClock.now + settings.supersededStopTimeout
        while ContinuousClock.now < deadline, stop.raised == nil {
            guard let delivering = try? await queue.supersededDeliveriesStillSending(before: claimed), delivering > 0 else { return }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    func finish(_ claimed: ClaimedDispatch, _ status: DispatchState, log: [ActivityLogEntry] = []) async throws -> DispatchEnding? {
        try await queue.finish(claimed, worker: worker, status: status, log: log) ? .finished(status) : nil
    }

    private func release(_ id: UUID, at date: Date) async throws -> DispatchEnding? {
        try await queue.release(id, worker: worker, retryAt: date) ? .handedBack(retryAt: date) : nil
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

    /// Renews the lease every third of its length until cancelled; notes when another worker took it.
    private func keepLease(_ id: UUID, lost: NIOLockedValueBox<Bool>) async {
        while true {
            do {
                try await Task.sleep(for: settings.lease / 3)
            } catch {
                return
            }
            do {
                if try await !queue.extendLease(id, worker: worker, lease: settings.lease) {
                    lost.withLockedValue { $0 = true }
                    return
                }
            } catch {
                logger.warning("could not renew a delivery lease", metadata: ["dispatch_id": "\(id.lowercasedText)", "error": "\(error)"])
            }
        }
    }
}
