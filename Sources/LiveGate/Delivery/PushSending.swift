import APNsCore
import Foundation

/// Sends one push through the sender, under the process-wide in-flight limit, and retries in place
/// what SPEC §7 says to retry (429, 5xx, no answer) with backoff and jitter.
struct PushSending: Sendable {
    let sender: APNsSender
    let limit: InFlightLimit
    let retry: RetryPolicy

    /// The result, and how many extra tries it took.
    func send(_ push: LiveActivityPush, app: App) async -> (result: PushResult, retries: Int) {
        var attempt = 1
        while true {
            // The permit is held for the request only, not while waiting to retry.
            let delivery = await limit.withPermit { await sender.send(push, app: app) }
            let problem: PushResult.RetriableProblem
            switch delivery {
            case .answered(.delivered):
                return (.delivered, attempt - 1)
            case .answered(.removeToken(let status, let reason, let timestamp)):
                return (.tokenRemoved(status: status, reason: reason, invalidSinceMilliseconds: timestamp), attempt - 1)
            case .answered(.rejected(let status, let reason)):
                return (.refused(status: status, reason: reason), attempt - 1)
            case .answered(.providerTokenRejected(let reason)):
                return (.credentialRejected(reason: reason), attempt - 1)
            case .noCredential:
                return (.noCredential, attempt - 1)
            case .unusableCredential:
                return (.credentialUnusable, attempt - 1)
            case .answered(.retryLater(let status, let reason)):
                problem = .answered(status: status, reason: reason)
            case .transportFailed(let error):
                problem = .unreachable(error)
            }
            if attempt >= retry.maximumAttempts {
                return (.gaveUp(attempts: attempt, lastProblem: problem), attempt - 1)
            }
            try? await Task.sleep(for: retry.delay(afterAttempt: attempt))
            attempt += 1
        }
    }
}
