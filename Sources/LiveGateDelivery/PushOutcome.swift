import APNsClient
import LiveGateDomain

/// What became of one push once `PushSending` is done with it: APNs's answer as delivery reads it, and
/// how many extra tries it took.
typealias PushOutcome = Retried<PushResult>

/// A page's push with its outcome, for recording the page: the push is kept to send it again when its
/// answer was lost (`resendUnanswered`).
struct SentPush: Sendable {
    var result: PushResult
    var retries: Int
    var throttling = Throttling()
    var push: LiveActivityPush
}
