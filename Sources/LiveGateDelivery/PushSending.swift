import APNsClient
import APNsCore
import Foundation
import LiveGateDomain

/// Sends a batch of one app's pushes (or one broadcast) through the sender, under the process-wide
/// in-flight limit, and retries in place what APNs says may be retried (429, 5xx, no answer).
///
/// 429 `TooManyRequests` is about one device (or channel): that device alone is backed off
/// (`TokenBackoff`, for its `retry-after` or exponentially), and so is a later push to it, of this
/// dispatch or another, while the others go at once. 5xx, no answer and `TooManyProviderTokenUpdates`
/// wait `retry`'s backoff with jitter, the pushes that met them together. Each push goes when it is
/// ready, the earliest first; a push that would have to wait longer than `maximumThrottleWait`, or
/// past its expiry, is given up.
struct PushSending: Sendable {
    let sender: APNsSender
    let limit: InFlightLimit
    let retry: RetryPolicy
    let backoff: TokenBackoff
    /// The longest a push waits for its throttled device before it is given up.
    let maximumThrottleWait: Duration

    /// Each push's result, and how many extra tries it took, in order; nil for a push not sent because
    /// `stop` was raised before its batch (or its retry) got its turn.
    func send(
        _ pushes: [LiveActivityPush], to destination: APNsDestination, unless stop: DispatchStopFlag? = nil
    )
        async -> [PushOutcome?]
    {
        await sendRetrying(pushes, to: destination, stopped: { _ in stop?.raised != nil })
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
                    (start, await sendRetrying(batch, to: destination, stopped: { stopped(start + $0) }))
                }
            }
            var results = [PushOutcome?](repeating: nil, count: pushes.count)
            for await (start, sent) in group {
                for (offset, outcome) in sent.enumerated() { results[start + offset] = outcome }
            }
            return results
        }
    }

    /// One push to a channel's subscribers, retried like a device's push; a 429 `TooManyRequests` backs
    /// off that channel.
    func broadcast(_ broadcast: LiveActivityBroadcast, to destination: APNsDestination) async -> Retried<BroadcastResult> {
        let key = TokenBackoff.Key(scope: TokenBackoff.Scope(destination), target: .channel(broadcast.channelID))
        return await withRetries(
            count: 1, key: { _ in key }, expiry: { _ in broadcast.expiresAt }, stopped: { _ in false }, isChannel: true
        ) { _ in [await sender.broadcast(broadcast, to: destination)] }[0]!
    }

    private func sendRetrying(
        _ pushes: [LiveActivityPush], to destination: APNsDestination, stopped: (Int) -> Bool
    ) async -> [PushOutcome?] {
        let scope = TokenBackoff.Scope(destination)
        return await withRetries(
            count: pushes.count, key: { TokenBackoff.Key(scope: scope, target: .device(pushes[$0].deviceToken)) },
            expiry: { pushes[$0].expiresAt }, stopped: stopped, isChannel: false
        ) { indices in
            // The first try is normally all of them, in order: sent as they are, not copied.
            await sender.send(indices.elementsEqual(pushes.indices) ? pushes : indices.map { pushes[$0] }, to: destination)
        }
    }

    /// One request's state in the retry loop.
    private struct Attempts {
        var tries = 0
        var readyAt: ContinuousClock.Instant
        var lastProblem: SendProblem?
        var throttling = Throttling()
    }

    /// Requests `0..<count`, each with its backoff key and expiry (made only when needed: most pushes
    /// need neither). `send` gets the indices to try and returns their answers in that order.
    /// `stopped(i)`: request `i`'s dispatch was stopped; asked when its try's turn comes.
    private func withRetries<Result: RetriedResult>(
        count: Int, key: @escaping (Int) -> TokenBackoff.Key, expiry: (Int) -> Date?, stopped: (Int) -> Bool, isChannel: Bool,
        _ send: ([Int]) async -> [APNsSendResult]
    ) async -> [Retried<Result>?] {
        var results = [Retried<Result>?](repeating: nil, count: count)
        let start = ContinuousClock.now
        var attempts = backoff.notBefore((0..<count).lazy.map(key), now: start).map { Attempts(readyAt: $0 ?? start) }
        var pending: [Int] = []
        for index in 0..<count {
            let wait = attempts[index].readyAt - start
            guard wait > .zero else {
                pending.append(index)
                continue
            }
            // Throttled by an earlier push to the same device: it waits, or is given up at once.
            attempts[index].throttling.waited(wait)
            if let result: Retried<Result> = givenUpWaiting(wait, attempts[index], expiry: expiry(index)) {
                results[index] = result
            } else {
                pending.append(index)
            }
        }
        while !pending.isEmpty {
            let now = ContinuousClock.now
            let ready = pending.filter { attempts[$0].readyAt <= now }
            guard !ready.isEmpty else {
                // A cancelled task cannot sleep: what waits goes now, as a cancelled retry always did.
                if Task.isCancelled {
                    for index in pending { attempts[index].readyAt = now }
                    continue
                }
                let next = pending.map { attempts[$0].readyAt }.min()!
                // In short steps, so that a stopped dispatch's waiting pushes end without waiting it out.
                try? await Task.sleep(until: min(next, now + .milliseconds(100)), clock: .continuous)
                for index in pending where stopped(index) {
                    results[index] = Self.stoppedWhileWaiting(attempts[index])
                }
                pending.removeAll { stopped($0) }
                continue
            }
            pending.removeAll { attempts[$0].readyAt <= now }
            // Permits are held for the requests only, not while waiting to retry. The stop is checked
            // once the requests' turn comes: pushes of a dispatch stopped meanwhile never go.
            let (going, answersInOrder) = await limit.withPermits(ready.count) { () -> ([Int], [APNsSendResult]) in
                let going = ready.filter { !stopped($0) }
                return (going, going.isEmpty ? [] : await send(going))
            }
            if going.count < ready.count {
                let going = Set(going)
                for index in ready where !going.contains(index) { results[index] = Self.stoppedWhileWaiting(attempts[index]) }
            }
            let answered = ContinuousClock.now
            // One wait for those that met the same problem on the same try, as a batch was retried whole.
            var delays: [Int: Duration] = [:]
            var accepted: [Int] = []
            var throttledAnswers = 0
            // From the last answer back, each moved out as it is read (`popLast`): reading them in place
            // would copy each, retaining its strings, and freeing the answers would release them again.
            var answers = consume answersInOrder
            var retrying: [Int] = []
            for index in going.reversed() {
                guard let answer = answers.popLast() else { break }
                attempts[index].tries += 1
                let tries = attempts[index].tries
                var throttledWait: Duration?
                if case .answered(let response) = answer {
                    if (200..<300).contains(response.status) { accepted.append(index) }
                    if response.status == 429, response.reason == .tooManyRequests {
                        throttledAnswers += 1
                        attempts[index].throttling.answers += 1
                        let wait = backoff.throttled(key(index), retryAfter: response.retryAfter, now: answered)
                        attempts[index].throttling.waited(wait)
                        throttledWait = wait
                    }
                }
                if let result = Result(answer, attempt: tries, maximumAttempts: retry.maximumAttempts) {
                    results[index] = Retried(result: result, retries: tries - 1, throttling: attempts[index].throttling)
                    continue
                }
                attempts[index].lastProblem = SendProblem(answer)
                if let throttledWait {
                    if let result: Retried<Result> = givenUpWaiting(throttledWait, attempts[index], expiry: expiry(index)) {
                        results[index] = result
                        continue
                    }
                    attempts[index].readyAt = answered + throttledWait
                } else {
                    let delay = delays[tries] ?? retry.delay(afterAttempt: tries)
                    delays[tries] = delay
                    attempts[index].readyAt = answered + delay
                }
                retrying.append(index)
            }
            pending.append(contentsOf: retrying.reversed())
            backoff.accepted(accepted.lazy.map(key))
            GatewayMetrics.apnsThrottled(throttledAnswers, channel: isChannel)
        }
        return results
    }

    /// Given up when its device's wait is longer than a push may wait, or would end past its expiry:
    /// as when its tries run out, with the 429 as its last problem.
    private func givenUpWaiting<Result: RetriedResult>(
        _ wait: Duration, _ attempts: Attempts, expiry: Date?
    ) -> Retried<Result>? {
        let pastExpiry = expiry.map { Date() + wait > $0 } ?? false
        guard wait > maximumThrottleWait || pastExpiry else { return nil }
        return Retried(
            result: .gaveUp(attempts: attempts.tries, lastProblem: .answered(status: 429, reason: .tooManyRequests)),
            retries: max(0, attempts.tries - 1), throttling: attempts.throttling)
    }

    /// Stopped before a retry: what was tried and not taken ends as given up (it may have reached
    /// APNs); what was never tried stays nil.
    private static func stoppedWhileWaiting<Result: RetriedResult>(_ attempts: Attempts) -> Retried<Result>? {
        guard let problem = attempts.lastProblem else { return nil }
        return Retried(
            result: .gaveUp(attempts: attempts.tries, lastProblem: problem), retries: attempts.tries - 1,
            throttling: attempts.throttling)
    }
}
