import HTTPTypes
import LiveGateDomain

extension ValidationProblems {
    /// A 400 listing every problem; with a single one, the message says it outright.
    func error() -> APIError {
        let summary =
            messages.count == 1
            ? "Invalid request: \(messages[0])"
            : "Invalid request: \(messages.count) problems, listed in errors"
        return APIError(.badRequest, summary, errors: messages)
    }

    func throwIfAny() throws(APIError) {
        if !messages.isEmpty { throw error() }
    }
}
