import HTTPTypes
import LiveGateDomain

extension PayloadVerdict {
    /// A 400 naming every path the activity's type would not decode, what it expected and what came:
    /// nothing of the message is accepted.
    func throwIfRefused() throws(APIError) {
        guard !refusals.isEmpty else { return }
        let summary =
            refusals.count == 1
            ? "Invalid request: the app could not decode this: \(refusals[0])"
            : "Invalid request: the app could not decode this: \(refusals.count) problems, listed in errors"
        throw APIError(.badRequest, summary, errors: refusals.map(\.description))
    }
}
