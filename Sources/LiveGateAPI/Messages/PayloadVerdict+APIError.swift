import HTTPTypes
import LiveGateDomain

extension PayloadVerdict {
    /// A 400 naming every path the activity's type would not decode, what it expected and what came
    /// (the first ones, and how many in all, when a check reached its limit): nothing of the message is
    /// accepted.
    package func throwIfRefused() throws(APIError) {
        guard !refusals.isEmpty else { return }
        let found = max(refusalsFound, refusals.count)
        let summary =
            if refusals.count == 1 && found == 1 {
                "Invalid request: the app could not decode this: \(refusals[0])"
            } else if found > refusals.count {
                "Invalid request: the app could not decode this: \(found) problems, the first \(refusals.count) listed in errors"
            } else {
                "Invalid request: the app could not decode this: \(refusals.count) problems, listed in errors"
            }
        throw APIError(.badRequest, summary, errors: refusals.map(\.description))
    }
}
