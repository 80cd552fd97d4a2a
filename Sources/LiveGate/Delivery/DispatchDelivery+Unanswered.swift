import APNsClient
import APNsCore
import Foundation

extension DispatchDelivery {
    /// Pushes of a page that got no answer on any try (a connection failed, TLS was refused) while
    /// others of the page got theirs: APNs is reachable, or soon will be again, and giving up on those
    /// devices would leave them behind for good. They are sent again, in rounds spaced as the dispatch
    /// retry policy says, until each is answered, the policy's attempts are used up, the message would
    /// expire first, or the dispatch or gateway stops. A page none of whose pushes got through is handed
    /// back whole instead (`retryLater`). Each device still has one result, so it is counted once.
    func resendUnanswered(
        _ results: inout [SentPush?], of dispatch: Dispatch,
        to destination: APNsDestination
    ) async {
        var round = 1
        while round < settings.resendRetry.maximumAttempts {
            let unanswered = results.indices.filter { results[$0]?.result.isUnreachable == true }
            let reached = results.contains { sent in sent.map { !$0.result.isUnreachable } ?? false }
            guard !unanswered.isEmpty, reached else { return }
            let wait = settings.resendRetry.delay(afterAttempt: round)
            guard Date() + wait < dispatch.expiresAt, await waitUnlessStopped(wait) else { return }
            let again = await sending.send(
                unanswered.compactMap { results[$0]?.push }, inBatchesOf: settings.pushesPerBatch, to: destination, unless: stop)
            for (index, outcome) in zip(unanswered, again) {
                guard let outcome, let earlier = results[index] else { continue }
                let retries = earlier.retries + 1 + outcome.retries
                var result = outcome.result
                if case .gaveUp(_, let problem) = result { result = .gaveUp(attempts: retries + 1, lastProblem: problem) }
                results[index] = SentPush(result: result, retries: retries, push: earlier.push)
            }
            round += 1
        }
    }

    /// Sleeps `duration` in short steps; false when the dispatch was stopped or the gateway began to
    /// stop meanwhile.
    private func waitUnlessStopped(_ duration: Duration) async -> Bool {
        let end = ContinuousClock.now + duration
        while ContinuousClock.now < end, stop.raised == nil, !isStopping() {
            try? await Task.sleep(for: min(.milliseconds(100), end - .now))
        }
        return stop.raised == nil && !isStopping()
    }
}
