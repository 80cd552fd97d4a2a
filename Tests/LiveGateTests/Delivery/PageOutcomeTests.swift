import APNsClient
import APNsCore
import Foundation
@testable import LiveGateDelivery
import LiveGateDomain
import Testing

/// What a page's answers come to, tallied without PostgreSQL or sockets: the counts, the credential
/// problem and whether APNs was out of reach, which `DispatchLife` then decides on (its own tests).
@Suite("A page's answers")
struct PageOutcomeTests {
    static let unreachable = PushResult.gaveUp(
        attempts: 3, lastProblem: .unreachable(HTTP2TransportError(.connectFailed, "injected: refused")))

    static func claimed(attempts: Int = 1) -> ClaimedDispatch {
        ClaimedDispatch(
            dispatch: Dispatch(
                workspaceID: UUID(), appID: UUID(), event: .update, activityID: "order-1", externalID: nil,
                payload: Array(#"{"aps":{}}"#.utf8), priority: .immediate, expiresAt: Date() + 3_600),
            createdAt: Date(), fanoutCursor: 40, attempts: attempts, broadcastRecorded: false, stop: nil)
    }

    /// A page of devices 41, 42, … with these results (nil: not sent, the dispatch was stopped).
    static func outcome(_ results: [PushResult?], of claimed: ClaimedDispatch) -> PageOutcome {
        let page = results.indices.map { FanoutTarget(cursor: 41 + Int64($0), token: PushToken(hex: String(format: "%064x", $0 + 1))!) }
        var ids = APNsIDGenerator()
        let pushes = claimed.dispatch.pushes(to: page, ids: &ids)
        let sent = zip(results, pushes).map { result, push in result.map { SentPush(result: $0, retries: 2, push: push) } }
        return PageOutcome(page: page, results: sent, dispatch: claimed.dispatch)
    }

    @Test func aPageAnsweredIsTalliedWithItsCounts() {
        let outcome = Self.outcome([.delivered, .refused(status: 400, reason: .badDeviceToken), Self.unreachable], of: Self.claimed())
        #expect(outcome.progress.cursor == 43)
        #expect(outcome.progress.sent == 1)
        #expect(outcome.progress.failed == 2)
        #expect(outcome.progress.retried == 6)
        #expect(outcome.unreachable == nil, "some pushes got through")
        #expect(outcome.credentialProblem == nil)
    }

    @Test func aPageNoPushOfWhichGotThroughIsUnreachable() {
        let outcome = Self.outcome([Self.unreachable, Self.unreachable], of: Self.claimed())
        #expect(outcome.unreachable != nil)
        #expect(outcome.progress.failed == 2)
        #expect(outcome.progress.retried == 4)
    }

    @Test func aGivenUpDispatchSaysSoOnce() {
        let claimed = Self.claimed(attempts: 3)
        let outcome = Self.outcome([Self.unreachable, Self.unreachable], of: claimed)
        let entry = DeliveryLogEntries.gaveUpOnDispatch(claimed.dispatch, attempts: claimed.attempts, problem: outcome.unreachable)
        #expect(entry.dispatchID == claimed.dispatch.id)
    }

    @Test func pushesNotSentForAStopCountNowhere() {
        let outcome = Self.outcome([Self.unreachable, nil], of: Self.claimed())
        #expect(outcome.progress.failed == 1)
        #expect(outcome.unreachable == nil, "the page is not all unreachable: one push was never sent")
    }

    @Test func aRejectedCredentialIsOneEntryNotOnePerDevice() {
        let outcome = Self.outcome(
            [.credentialRejected(reason: .invalidProviderToken), .credentialRejected(reason: .invalidProviderToken), .delivered],
            of: Self.claimed())
        #expect(outcome.credentialProblem != nil)
        #expect(outcome.progress.sent == 1)
        #expect(outcome.progress.log.isEmpty)
    }
}
