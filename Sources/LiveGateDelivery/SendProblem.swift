import APNsClient
import APNsCore
import LiveGateDomain

/// Why a try of a push or broadcast failed in a way worth another try: 429, a 5xx, or no answer.
package enum SendProblem: Sendable, Equatable {
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
/// given up after `attempts` tries that each met a `SendProblem`. Which answers are worth another try is
/// decided once, here, for both; what a final answer means is each result's own.
package protocol RetriedResult: Sendable {
    /// What a final answer (not a `SendProblem`) means.
    init(finalAnswer response: APNsResponse)
    /// The key cannot sign: nothing was sent.
    static var credentialUnusable: Self { get }
    static func gaveUp(attempts: Int, lastProblem: SendProblem) -> Self
}

extension RetriedResult {
    /// What try number `attempt` came to; nil when it is worth another try (a `SendProblem`, with tries
    /// left).
    package init?(_ answer: APNsSendResult, attempt: Int, maximumAttempts: Int) {
        if let problem = SendProblem(answer) {
            guard attempt >= maximumAttempts else { return nil }
            self = .gaveUp(attempts: attempt, lastProblem: problem)
            return
        }
        guard case .answered(let response) = answer else {
            self = .credentialUnusable
            return
        }
        self.init(finalAnswer: response)
    }
}

/// A result, how many extra tries it took, and what APNs's 429 `TooManyRequests` did to it.
struct Retried<Result: RetriedResult>: Sendable {
    var result: Result
    var retries: Int
    var throttling = Throttling()
}
