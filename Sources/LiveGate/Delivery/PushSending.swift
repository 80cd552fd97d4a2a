import APNsCore
import Foundation

/// Sends a batch of one app's pushes through the sender, under the process-wide in-flight limit, and
/// retries in place what SPEC §7 says to retry (429, 5xx, no answer) with backoff and jitter: the
/// pushes that need it are sent again together.
struct PushSending: Sendable {
    let sender: APNsSender
    let limit: InFlightLimit
    let retry: RetryPolicy

    /// Each push's result, and how many extra tries it took, in order.
    func send(_ pushes: [LiveActivityPush], app: App) async -> [(result: PushResult, retries: Int)] {
        var results = [(result: PushResult, retries: Int)?](repeating: nil, count: pushes.count)
        var pending = Array(pushes.indices)
        var attempt = 1
        while !pending.isEmpty {
            let batch = pending.map { pushes[$0] }
            // Permits are held for the requests only, not while waiting to retry.
            let deliveries = await limit.withPermits(batch.count) { await sender.send(batch, app: app) }
            var again: [Int] = []
            for (index, delivery) in zip(pending, deliveries) {
                switch Self.result(of: delivery) {
                case .final(let result):
                    results[index] = (result, attempt - 1)
                case .retriable(let problem):
                    if attempt >= retry.maximumAttempts {
                        results[index] = (.gaveUp(attempts: attempt, lastProblem: problem), attempt - 1)
                    } else {
                        again.append(index)
                    }
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

    private enum Classified {
        case final(PushResult)
        case retriable(PushResult.RetriableProblem)
    }

    private static func result(of delivery: APNsDelivery) -> Classified {
        switch delivery {
        case .answered(.delivered): .final(.delivered)
        case .answered(.removeToken(let status, let reason, let timestamp)):
            .final(.tokenRemoved(status: status, reason: reason, invalidSinceMilliseconds: timestamp))
        case .answered(.rejected(let status, let reason)): .final(.refused(status: status, reason: reason))
        case .answered(.providerTokenRejected(let reason)): .final(.credentialRejected(reason: reason))
        case .noCredential: .final(.noCredential)
        case .unusableCredential: .final(.credentialUnusable)
        case .answered(.retryLater(let status, let reason)): .retriable(.answered(status: status, reason: reason))
        case .transportFailed(let error): .retriable(.unreachable(error))
        }
    }
}
