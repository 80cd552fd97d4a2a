import APNsClient

/// Sends a batch of one app's pushes through the sender, under the process-wide in-flight limit, and
/// retries in place what SPEC §7 says to retry (429, 5xx, no answer) with backoff and jitter: the
/// pushes that need it are sent again together.
struct PushSending: Sendable {
    let sender: APNsSender
    let limit: InFlightLimit
    let retry: RetryPolicy

    /// Each push's result, and how many extra tries it took, in order.
    func send(_ pushes: [LiveActivityPush], to destination: APNsDestination) async -> [(result: PushResult, retries: Int)] {
        var results = [(result: PushResult, retries: Int)?](repeating: nil, count: pushes.count)
        var pending = Array(pushes.indices)
        var attempt = 1
        while !pending.isEmpty {
            let batch = pending.map { pushes[$0] }
            // Permits are held for the requests only, not while waiting to retry.
            let answers = await limit.withPermits(batch.count) { await sender.send(batch, to: destination) }
            var again: [Int] = []
            for (index, answer) in zip(pending, answers) {
                if let result = PushResult(answer, attempt: attempt, maximumAttempts: retry.maximumAttempts) {
                    results[index] = (result, attempt - 1)
                } else {
                    again.append(index)
                }
            }
            pending = again
            if !pending.isEmpty {
                try? await Task.sleep(for: retry.delay(afterAttempt: attempt))
                attempt += 1
            }
        }
        return results.map { $0! }
    }
}
