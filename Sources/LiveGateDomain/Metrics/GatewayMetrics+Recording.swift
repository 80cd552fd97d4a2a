import APNsCore
import Foundation
import Metrics

/// The one-line calls that record the gateway's own metrics, through whatever swift-metrics backend the
/// process bootstrapped (none: they cost a lookup and record nothing).
extension GatewayMetrics {
    /// A message committed now; a replayed answer or a reused key is no new message.
    package static func accepted(_ event: LiveActivityEvent, _ outcome: IdempotentOutcome) {
        guard case .committed = outcome else { return }
        Counter(label: messagesAccepted.name, dimensions: [("event", event.rawValue)]).increment()
    }

    /// `route`: the route template (Hummingbird's `endpointPath`), never the raw path.
    package static func refusedByRateLimit(route: String?) {
        Counter(label: rateLimitRefusals.name, dimensions: [("route", route ?? unmatchedRoute)]).increment()
    }

    /// APNs answered 429 `TooManyRequests` this many times for devices (`channel` false) or broadcast channels.
    package static func apnsThrottled(_ answers: Int, channel: Bool = false) {
        guard answers > 0 else { return }
        Counter(label: apnsThrottled.name, dimensions: [("target", channel ? "channel" : "device")]).increment(by: answers)
    }

    /// A delivery ended: if the dispatch finished done, how long it took from acceptance (or its `send_at`,
    /// if later) until now, its last device's push answered and recorded.
    package static func deliveryEnded(_ claimed: ClaimedDispatch, _ ending: DispatchEnding?, now: Date = Date()) {
        guard ending == .finished(.done) else { return }
        let due = max(claimed.createdAt, claimed.dispatch.sendAt ?? claimed.createdAt)
        Timer(label: dispatchDeliveryDuration.name, dimensions: [("event", claimed.dispatch.event.rawValue)])
            .record(duration: .seconds(max(0, now.timeIntervalSince(due))))
    }

    package static func startsConfirmed(_ confirmed: ConfirmedStarts) {
        guard confirmed.count > 0 else { return }
        Counter(label: startsConfirmed.name).increment(by: confirmed.count)
        let timer = Timer(label: startConfirmationDuration.name)
        for wait in confirmed.waits { timer.record(duration: wait) }
    }

    package static func startsUnconfirmed(_ devices: Int) {
        guard devices > 0 else { return }
        Counter(label: startsUnconfirmed.name).increment(by: devices)
    }

    package static func deviceStateReported(_ state: ActivityDeviceState) {
        Counter(label: deviceStateReports.name, dimensions: [("state", state.rawValue)]).increment()
    }

    package static func contentStateMismatch(_ event: LiveActivityEvent) {
        Counter(label: contentStateMismatches.name, dimensions: [("event", event.rawValue)]).increment()
    }

    package static func channelMemberPushesSkipped(_ devices: Int) {
        guard devices > 0 else { return }
        Counter(label: channelMemberPushesSkipped.name).increment(by: devices)
    }

    package static func priorityLowered(_ pushes: Int) {
        guard pushes > 0 else { return }
        Counter(label: priorityLowered.name).increment(by: pushes)
    }

    package static func record(_ backlog: DispatchBacklog) {
        Gauge(label: dispatchesWaiting.name, dimensions: [("state", "pending")]).record(backlog.pending)
        Gauge(label: dispatchesWaiting.name, dimensions: [("state", "delivering")]).record(backlog.delivering)
        Gauge(label: dispatchesScheduled.name).record(backlog.scheduled)
        Gauge(label: oldestWaitingDispatch.name).record(backlog.oldestWaitingSeconds)
    }

    /// What a request that matched no route is counted under.
    package static let unmatchedRoute = "unmatched"
}
