import Foundation

/// The durable queue every report goes through: kept on disk (`OutboxStore`) until the gateway took it,
/// so a relaunch sends what the last run could not. A newer report replaces a waiting one with the same
/// key, in its place. One report is sent at a time, in the order queued; failures wait (`RetryPolicy`,
/// `Retry-After`) and go again, reports refused for good are dropped, and each problem reaches the app
/// through `errors`.
actor Outbox {
    private var state: OutboxState
    private let store: OutboxStore
    private let sender: ReportSender
    private let retry: RetryPolicy
    private let errors: AsyncStream<LiveGateError>.Continuation
    /// The report being sent: never replaced or sent again meanwhile.
    private var inFlight: UUID?
    private var wake: CheckedContinuation<Void, Never>?
    private var emptyWaiters: [CheckedContinuation<Void, Never>] = []
    private var runner: Task<Void, Never>?

    init(store: OutboxStore, sender: ReportSender, retry: RetryPolicy, errors: AsyncStream<LiveGateError>.Continuation) {
        self.store = store
        self.sender = sender
        self.retry = retry
        self.errors = errors
        do {
            state = try store.load()
        } catch {
            state = OutboxState()
            errors.yield(LiveGateError(code: .storageFailed, message: "the outbox could not be read; starting empty"))
        }
    }

    func start() {
        guard runner == nil else { return }
        runner = Task { await self.run() }
    }

    /// Stops sending; what waits stays on disk for the next launch.
    func stop() {
        runner?.cancel()
        runner = nil
        wakeSender()
    }

    /// Queues a report made now, for the current user.
    func enqueue(
        _ kind: Report.Kind, subject: String, token: String? = nil, state reported: LiveActivityState? = nil,
        channelID: String? = nil, reportedAt: Date? = nil, attributesType: String? = nil
    ) {
        let report = Report(
            id: UUID(), kind: kind, subject: subject, token: token, state: reported, channelID: channelID,
            reportedAt: reportedAt, externalID: state.externalID, attributesType: attributesType)
        if kind != .state {
            state.registrations.removeAll { $0.coalescingKey == report.coalescingKey }
            if token != nil { state.registrations.append(report) }
        }
        add(report)
    }

    /// The user changed: later reports name the new one, and every token registration is sent again
    /// under it, so the gateway attributes the device's tokens to the user it now belongs to.
    func changeUser(_ externalID: String?) {
        guard state.externalID != externalID else { return }
        state.externalID = externalID
        if externalID != nil {
            state.registrations = state.registrations.map {
                var again = $0
                again.id = UUID()
                again.externalID = externalID
                return again
            }
            for registration in state.registrations { queue(registration) }
        }
        save()
        wakeSender()
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

    /// Returns once nothing waits to be sent (each report sent or dropped).
    func flush() async {
        guard !state.pending.isEmpty else { return }
        await withCheckedContinuation { emptyWaiters.append($0) }
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
                for waiter in emptyWaiters { waiter.resume() }
                emptyWaiters = []
                await withCheckedContinuation { wake = $0 }
                continue
            }
            inFlight = next.id
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
                try? await Task.sleep(for: retry.delay(afterFailures: failures, retryAfter: after))
            }
        }
    }

    private func remove(_ id: UUID) {
        state.pending.removeAll { $0.id == id }
        save()
    }
}
