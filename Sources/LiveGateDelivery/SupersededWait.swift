import Foundation
import LiveGateDomain

/// Newest state first, before a dispatch's first push: the older superseded deliveries to its devices
/// that may still have pushes out are waited for, briefly, so a device never gets the older state after
/// the newer. Another gateway's, as the database tells; this process's, only while it is really sending
/// (`DispatchesSending`): one still waiting to send is stopped instead, and will send nothing.
struct SupersededWait: DeliveryStage {
    let context: DeliveryContext
    let stops: DispatchStopSignals
    let sendingNow: DispatchesSending

    /// The older deliveries each of `dispatches` must wait for; those with none are left out.
    func olderStillSending(before dispatches: [ClaimedDispatch]) async throws -> [UUID: [SupersededDelivery]] {
        var waiting: [UUID: [SupersededDelivery]] = [:]
        for older in try await queue.supersededStillSending(before: dispatches) {
            if older.worker == worker, !sendingNow.stopUnlessSending(older.older, stops: stops) { continue }
            waiting[older.newer, default: []].append(older)
        }
        return waiting
    }

    /// Waits, at most `supersededStopTimeout`, until the older deliveries are no longer sending: this
    /// process's, as it knows them; other gateways', as the database says. A dispatch that is stopped
    /// itself meanwhile waits no longer: it will send nothing.
    func wait(
        for waiting: [UUID: [SupersededDelivery]], of dispatches: [ClaimedDispatch], flags: [UUID: DispatchStopFlag]
    ) async {
        let deadline = ContinuousClock.now + settings.supersededStopTimeout
        var waiting = waiting
        while ContinuousClock.now < deadline {
            for (newer, olders) in waiting {
                let still = olders.filter { $0.worker != worker || sendingNow.isSending($0.older) }
                waiting[newer] = flags[newer]?.raised != nil || still.isEmpty ? nil : still
            }
            guard !waiting.isEmpty else { return }
            try? await Task.sleep(for: .milliseconds(2))
            let remote = waiting.filter { $0.value.contains { $0.worker != worker } }
            guard !remote.isEmpty else { continue }
            let newer = Set(remote.keys)
            guard let current = try? await queue.supersededStillSending(before: dispatches.filter { newer.contains($0.dispatch.id) })
            else { return }
            let open = Set(current.map(\.older))
            for id in newer { waiting[id] = waiting[id]?.filter { $0.worker == worker || open.contains($0.older) } }
        }
    }
}
