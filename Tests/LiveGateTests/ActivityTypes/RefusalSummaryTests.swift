import APNsCore
import HTTPTypes
import LiveGateAPI
import LiveGateDomain
import Testing

/// The 400 for what the app could not decode says how many problems there are, also when the list in
/// `errors` stops at its limit.
@Suite("The refusal's summary")
struct RefusalSummaryTests {
    private func refusal(listing listed: Int, found: Int) -> APIError? {
        var verdict = PayloadVerdict(contentState: JSONObject())
        verdict.refusals = (0..<listed).map {
            PayloadMismatch(path: "$.content_state.counts.k\($0)", expected: "integer", got: #"string "x""#)
        }
        verdict.refusalsFound = found
        do {
            try verdict.throwIfRefused()
            return nil
        } catch {
            return error
        }
    }

    @Test func aCutListSaysHowManyThereAreInAll() throws {
        let cut = try #require(refusal(listing: PayloadSchema.mismatchLimit, found: 80))
        #expect(cut.status == .badRequest)
        #expect(cut.message == "Invalid request: the app could not decode this: 80 problems, the first 50 listed in errors")
        #expect(cut.errors.count == 50)
    }

    @Test func aWholeListSaysItsCountOrItsOneProblem() throws {
        let whole = try #require(refusal(listing: 4, found: 4))
        #expect(whole.message == "Invalid request: the app could not decode this: 4 problems, listed in errors")
        let one = try #require(refusal(listing: 1, found: 1))
        #expect(
            one.message == #"Invalid request: the app could not decode this: $.content_state.counts.k0: expected integer, got string "x""#)
        #expect(refusal(listing: 0, found: 0) == nil)
    }
}
