import APNsClient
import APNsCore
import LiveGateDomain

/// Sends a batch of one app's pushes (or one broadcast) through the sender, under the process-wide
/// in-flight limit, and retries in place what APNs says may be retried (429, 5xx, no answer) with backoff
/// and jitter: the pushes that need it are sent again together.
struct PushSending: Sendable {
    let sender: APNsSender
    let limit: InFlightLimit
    let retry: RetryPolicy

    /// Each push's result, and how many extra tries it took, in order; nil for a push not sent because
    /// `stop` was raised before its batch (or its retry) got its turn.
    func send(
        _ pushes: [LiveActivityPush], to destination: APNsDestination, unless stop: DispatchStopFlag? = nil
    )
        async -> [PushOutcome?]
    {
        await withRetries(count: pushes.count, stopped: { _ in stop?.raised != nil }) { indices in
            await sender.send(indices.map { pushes[$0] }, to: destination)
        }
    }

    /// Sends `pushes` in batches of `size`, all at once (the in-flight limit paces them); each batch is
    /// one task and one wake-up of the HTTP/2 client for many pushes. Results as `send` gives them.
    func send(
        _ pushes: [LiveActivityPush], inBatchesOf size: Int, to destination: APNsDestination, unless stop: DispatchStopFlag? = nil
    ) async -> [PushOutcome?] {
        await send(pushes, inBatchesOf: size, to: destination, stopped: { _ in stop?.raised != nil })
    }

    /// As above, for pushes of several dispatches: `stopped(i)` says whether push `i`'s dispatch was
    /// stopped, asked when its batch (or its retry) gets its turn.
    func send(
        _ pushes: [LiveActivityPush], inBatchesOf size: Int, to destination: APNsDestination,
        stopped: @escaping @Sendable (Int) -> Bool
    ) async -> [PushOutcome?] {
        await withTaskGroup(of: (Int, [PushOutcome?]).self) { group in
            for start in stride(from: 0, to: pushes.count, by: size) {
                let batch = Array(pushes[start..<min(start + size, pushes.count)])
                group.addTask {
                    let sent: [PushOutcome?] = await withRetries(count: batch.count, stopped: { stopped(start + $0) }) { indices in
                        await sender.send(indices.map { batch[$0] }, to: destination)
                    }
                    return (start, sent)
                }
            }
            var results = [PushOutcome?](repeating: nil, count: pushes.count)
            for await (start, sent) in group {
                for (offset, outcome) in sent.enumerated() { results[start + offset] = outcome }
            }
            return results
        }
    }

    /// One push to a channel's subscribers, retried like a device's push.
    func broadcast(_ broadcast: LiveActivityBroadcast, to destination: APNsDestination) async -> Retried<BroadcastResult> {
        await withRetries(count: 1, stopped: { _ in false }) { _ in [await sender.broadcast(broadcast, to: destination)] }[0]!
    }

    /// `send` gets the indices (of `0..<count`) to try and returns their answers in that order.
    /// `stopped(i)`: push `i`'s dispatch was stopped; asked once each try's turn comes.
    private func withRetries<Result: RetriedResult>(
        count: Int, stopped: (Int) -> Bool, _ send: ([Int]) async -> [APNsSendResult]
    ) async -> [Retried<Result>?] {
        var results = [Retried<Result>?](repeating: nil, count: count)
        var pending = Array(0..<count)
        var lastProblems: [Int: SendProblem] = [:]
        var attempt = 1
        while !pending.isEmpty {
            // Permits are held for the requests only, not while waiting to retry. The stop is checked
            // once the batch's turn comes: pushes of a dispatch stopped meanwhile never go.
            let (going, answers) = await limit.withPermits(pending.count) { () -> ([Int], [APNsSendResult]) in
                let going = pending.filter { !stopped($0) }
                return (going, going.isEmpty ? [] : await send(going))
            }
            // Stopped before a retry: what was tried and not taken ends as given up (it may have
            // reached APNs); what was never tried stays nil.
            if attempt > 1 {
                let going = Set(going)
                for index in pending where !going.contains(index) {
                    guard let problem = lastProblems[index] else { continue }
                    results[index] = Retried(result: .gaveUp(attempts: attempt - 1, lastProblem: problem), retries: attempt - 2)
                }
            }
            var again: [Int] = []
            for (index, answer) in zip(going, answers) {
                if let result = Result(answer, attempt: attempt, maximumAttempts: retry.maximumAttempts) {
                    results[index] = Retried(result: result, retries: attempt - 1)
                } else {
                    again.append(index)
                    // The problem to report if the dispatch stops before the next try.
                    lastProblems[index] = SendProblem(answer)
                }
            }
            pending = again
            if !pending.isEmpty {
                try? await Task.sleep(for: retry.delay(afterAttempt: attempt))
                attempt += 1
            }
        }
        return results
    }
}
