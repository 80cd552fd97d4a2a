import APNsClient
import APNsCore

/// Why a try of a push or broadcast failed in a way worth another try: 429, a 5xx, or no answer.
public enum SendProblem: Sendable, Equatable {
    case answered(status: Int, reason: APNsReason?)
    case unreachable(HTTP2TransportError)

    /// The problem `answer` shows, or nil when it is final (any other answer, or a key that cannot sign).
    init?(_ answer: APNsSendResult) {
        switch answer {
        case .unreachable(let error): self = .unreachable(error)
        case .answered(let response) where response.status == 429 || (500...599).contains(response.status):
            self = .answered(status: response.status, reason: response.reason)
        case .answered, .unsignable: return nil
        }
    }
}

/// What a push or broadcast came to once `PushSending` stopped trying: made from the final answer, or
/// given up after `attempts` tries that each met a `SendProblem`.
protocol RetriedResult: Sendable {
    /// What try number `attempt` came to; nil when it is worth another try (a `SendProblem`, with tries
    /// left).
    init?(_ answer: APNsSendResult, attempt: Int, maximumAttempts: Int)
    static func gaveUp(attempts: Int, lastProblem: SendProblem) -> Self
}

/// A result, and how many extra tries it took.
struct Retried<Result: RetriedResult>: Sendable {
    var result: Result
    var retries: Int
}
