import APNsClient
import APNsCore
import Foundation
import LiveGateDomain

/// Pushes of a page that got no answer on any try (a connection failed, TLS was refused) while others of
/// the page got theirs: APNs is reachable, or soon will be again, and giving up on those devices would
/// leave them behind for good. They are sent again, in rounds spaced as `settings.resendRetry` says,
/// until each is answered, its attempts are used up, the message would expire first, or the dispatch or
/// gateway stops. A page none of whose pushes got through is handed back whole instead (`DispatchLife`).
/// Each device still has one result, so it is counted once.
struct UnansweredResend: DeliveryStage {
    let context: DeliveryContext

    /// Whether a page's results have pushes to send again: some got no answer, others got theirs.
    static func mayHelp(_ results: [SentPush?]) -> Bool {
        var unanswered = false
        var reached = false
        for sent in results {
            guard let sent else { continue }
            if sent.result.isUnreachable { unanswered = true } else { reached = true }
            if unanswered && reached { return true }
        }
        return false
    }

    func resend(
        _ results: inout [SentPush?], of dispatch: Dispatch, to destination: APNsDestination, unless stop: DispatchStopFlag
    ) async {
        var round = 1
        while round < settings.resendRetry.maximumAttempts, Self.mayHelp(results) {
            let unanswered = results.indices.filter { results[$0]?.result.isUnreachable == true }
            let pause = settings.resendRetry.delay(afterAttempt: round)
            guard Date() + pause < dispatch.expiresAt, await wait(pause, unless: stop) else { return }
            let again = await sending.send(
                unanswered.compactMap { results[$0]?.push }, inBatchesOf: settings.pushesPerBatch, to: destination, unless: stop)
            for (index, outcome) in zip(unanswered, again) {
                guard let outcome, let earlier = results[index] else { continue }
                let retries = earlier.retries + 1 + outcome.retries
                var result = outcome.result
                if case .gaveUp(_, let problem) = result { result = .gaveUp(attempts: retries + 1, lastProblem: problem) }
                results[index] = SentPush(
                    result: result, retries: retries, throttling: earlier.throttling.merged(with: outcome.throttling), push: earlier.push)
            }
            round += 1
        }
    }

    /// Sleeps `duration` in short steps; false when the dispatch was stopped or the gateway began to
    /// stop meanwhile.
    private func wait(_ duration: Duration, unless stop: DispatchStopFlag) async -> Bool {
        let end = ContinuousClock.now + duration
        while ContinuousClock.now < end, stop.raised == nil, !isStopping() {
            try? await Task.sleep(for: min(.milliseconds(100), end - .now))
        }
        return stop.raised == nil && !isStopping()
    }
}
