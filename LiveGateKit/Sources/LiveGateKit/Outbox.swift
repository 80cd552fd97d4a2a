import Foundation

/// The durable queue every report goes through: kept on disk (`OutboxStore`) until the gateway took it,
/// so a relaunch sends what the last run could not. A newer report replaces a waiting one with the same
/// key, in its place. One report is sent at a time, in the order queued; failures wait (`RetryPolicy`,
/// `Retry-After`) and go again, reports refused for good are dropped, and each problem reaches the app
/// through `errors`.
@available(iOS 16.0, macOS 13.0, *)
actor Outbox {
    /// Who reports name; `state.externalID` follows it once the registrations were queued again.
    nonisolated let user: CurrentUser
    private var state: OutboxState
    private let store: OutboxStore
    private let sender: ReportSender
    private let retry: RetryPolicy
    private let errors: AsyncStream<LiveGateError>.Continuation
    /// The report being sent: never replaced or sent again meanwhile.
    private var inFlight: UUID?
    private var wake: CheckedContinuation<Void, Never>?
    /// The wait after a failed try; `flush()` may cut it short unless the gateway asked for it.
    private var pause: (continuation: CheckedContinuation<Void, Never>, mayShorten: Bool)?
    private var flushes = FlushWaiters()
    /// Tries begun so far: a flush learns of the failure of a try made while it waits (one in flight at
    /// its call included), never of an older one.
    private var attempts = 0
    private var runner: Task<Void, Never>?
    /// After `stop()` nothing is sent in this run: a flush does not wait.
    private var stopped = false

    init(store: OutboxStore, sender: ReportSender, retry: RetryPolicy, errors: AsyncStream<LiveGateError>.Continuation) {
        self.store = store
        self.sender = sender
        self.retry = retry
        self.errors = errors
        var loaded: OutboxState
        do {
            loaded = try store.load()
        } catch {
            loaded = OutboxState()
            errors.yield(LiveGateError(code: .storageFailed, message: "the outbox could not be read; starting empty"))
        }
        state = loaded
        user = CurrentUser(loaded.externalID)
    }

    func start() {
        guard runner == nil else { return }
        runner = Task { await self.run() }
    }

    /// Stops sending; what waits stays on disk for the next launch.
    func stop() {
        stopped = true
        runner?.cancel()
        runner = nil
        wakeSender()
        endPause()
        flushes.resumeAll(false)
    }

    /// Queues a report made now, for the current user.
    func enqueue(
        _ kind: Report.Kind, subject: String, token: String? = nil, state reported: LiveActivityState? = nil,
        channelID: String? = nil, reportedAt: Date? = nil, attributesType: String? = nil, frequentPushesEnabled: Bool? = nil
    ) {
        let report = Report(
            id: UUID(), kind: kind, subject: subject, token: token, state: reported, channelID: channelID,
            reportedAt: reportedAt, externalID: user.externalID, attributesType: attributesType,
            frequentPushesEnabled: frequentPushesEnabled)
        if kind != .state {
            state.registrations.removeAll { $0.coalescingKey == report.coalescingKey }
            if token != nil { state.registrations.append(report) }
        }
        add(report)
    }

    /// The user changed (`user` holds the new one): every token registration is queued again under
    /// them, so the gateway gives the device's tokens to the user it now belongs to; after a logout, to
    /// no user (each goes with `"external_id": null`).
    func userChanged() {
        let externalID = user.externalID
        guard state.externalID != externalID else { return }
        state.externalID = externalID
        // Those made since the change already name the user.
        for index in state.registrations.indices where state.registrations[index].externalID != externalID {
            state.registrations[index].id = UUID()
            state.registrations[index].externalID = externalID
            queue(state.registrations[index])
        }
        save()
        wakeSender()
    }

    /// Queues the removal of every push-to-start token this device registered.
    func removePushToStartRegistrations() {
        let types = state.registrations.filter { $0.kind == .pushToStartToken }.map(\.subject)
        for type in types { enqueue(.pushToStartToken, subject: type) }
    }

    func rememberTag(_ tag: String, forActivity activityID: String) {
        state.activityTags[activityID] = tag
        save()
    }

    func forgetActivity(_ activityID: String) {
        guard state.activityTags.removeValue(forKey: activityID) != nil else { return }
        save()
    }

    func tag(forActivity activityID: String) -> String? { state.activityTags[activityID] }

    /// True once nothing waits to be sent (each report sent or refused for good); false as soon as a try
    /// made while it waits could not reach the gateway (the reports wait for the next), when the calling
    /// task is cancelled, or after `stop()`. A backoff wait is cut short so that the next try happens now; a wait the
    /// gateway asked for (`Retry-After`) is kept.
    func flush() async -> Bool {
        guard !state.pending.isEmpty else { return true }
        guard !stopped else { return false }
        let id = UUID()
        let since = attempts
        if let pause, pause.mayShorten { endPause() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume(returning: false)
                } else {
                    flushes.add(id, since: since, continuation)
                }
            }
        } onCancel: {
            Task { await self.cancelFlush(id) }
        }
    }

    private func cancelFlush(_ id: UUID) {
        flushes.resume(id, false)
    }

    private func add(_ report: Report) {
        queue(report)
        save()
        wakeSender()
    }

    /// Puts the report in the queue: in the place of a waiting one with the same key (so what was queued
    /// after that one is still sent after it), or last.
    private func queue(_ report: Report) {
        if let waiting = state.pending.firstIndex(where: { $0.coalescingKey == report.coalescingKey && $0.id != inFlight }) {
            state.pending[waiting] = report
        } else {
            state.pending.append(report)
        }
    }

    private func wakeSender() {
        wake?.resume()
        wake = nil
    }

    private func save() {
        do {
            try store.save(state)
        } catch {
            errors.yield(LiveGateError(code: .storageFailed, message: "the outbox could not be written; reports are kept in memory"))
        }
    }

    private func run() async {
        var failures = 0
        while !Task.isCancelled {
            guard let next = state.pending.first else {
                flushes.resumeAll(true)
                await withCheckedContinuation { wake = $0 }
                continue
            }
            inFlight = next.id
            attempts += 1
            let attempt = attempts
            let outcome = await sender.send(next)
            inFlight = nil
            switch outcome {
            case .sent:
                failures = 0
                remove(next.id)
            case .refused(let error):
                failures = 0
                remove(next.id)
                errors.yield(error)
            case .retry(let error, let after):
                failures += 1
                errors.yield(error)
                if error.code == .gatewayUnavailable && error.status == nil { flushes.resumeUnreached(by: attempt) }
                await wait(retry.delay(afterFailures: failures, retryAfter: after), mayShorten: after == nil)
            }
        }
    }

    /// Waits `delay` before the next try, or until `flush()` (when `mayShorten`) or `stop()` ends it.
    private func wait(_ delay: Duration, mayShorten: Bool) async {
        let timer = Task { [weak self] in
            // Cancelled once the pause ended otherwise: it must not end a later one.
            guard (try? await Task.sleep(for: delay)) != nil else { return }
            await self?.endPause()
        }
        await withCheckedContinuation { pause = ($0, mayShorten) }
        timer.cancel()
    }

    private func endPause() {
        pause?.continuation.resume()
        pause = nil
    }

    private func remove(_ id: UUID) {
        state.pending.removeAll { $0.id == id }
        save()
    }
}
