import APNsClient
import APNsCore
import Foundation
import LiveGateAPI
@testable import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import Testing

import LiveGate

/// What becomes of a dispatch once a page's answers are in, decided without PostgreSQL or sockets: the
/// one rule a fan-out's pages and a batch's small dispatches share.
@Suite("A page's verdict")
struct PageVerdictTests {
    static let retry = RetryPolicy(maximumAttempts: 3, baseDelay: .seconds(10), maximumDelay: .seconds(60))
    static let unreachable = PushResult.gaveUp(
        attempts: 3, lastProblem: .unreachable(HTTP2TransportError(.connectFailed, "injected: refused")))

    static func claimed(attempts: Int = 1, expiresIn seconds: TimeInterval = 3_600, cursor: Int64 = 40) -> ClaimedDispatch {
        ClaimedDispatch(
            dispatch: Dispatch(
                workspaceID: UUID(), appID: UUID(), event: .update, activityID: "order-1", externalID: nil,
                payload: Array(#"{"aps":{}}"#.utf8), priority: .immediate, expiresAt: Date() + seconds),
            createdAt: Date(), fanoutCursor: cursor, attempts: attempts, broadcastRecorded: false, stop: nil)
    }

    /// A page of devices 41, 42, … with these results (nil: not sent, the dispatch was stopped).
    static func outcome(_ results: [PushResult?], of claimed: ClaimedDispatch) -> PageOutcome {
        let page = results.indices.map { FanoutTarget(cursor: 41 + Int64($0), token: PushToken(hex: String(format: "%064x", $0 + 1))!) }
        var ids = APNsIDGenerator()
        let pushes = claimed.dispatch.pushes(to: page, ids: &ids)
        let sent = zip(results, pushes).map { result, push in result.map { SentPush(result: $0, retries: 2, push: push) } }
        return PageOutcome(page: page, results: sent, dispatch: claimed.dispatch)
    }

    @Test func aPageAnsweredIsRecordedWithItsCounts() {
        let claimed = Self.claimed()
        let outcome = Self.outcome([.delivered, .refused(status: 400, reason: .badDeviceToken), Self.unreachable], of: claimed)
        guard case .record(let progress) = PageVerdict(outcome, of: claimed, pageStart: 40, stopped: nil, retry: Self.retry) else {
            Issue.record("a page some of whose pushes got through is recorded")
            return
        }
        #expect(progress.cursor == 43)
        #expect(progress.sent == 1)
        #expect(progress.failed == 2)
        #expect(progress.retried == 6)
    }

    @Test func aPageNoPushOfWhichGotThroughIsHandedBackFromItsStart() {
        let claimed = Self.claimed(attempts: 1)
        let now = Date()
        let outcome = Self.outcome([Self.unreachable, Self.unreachable], of: claimed)
        guard
            case .handBack(let retryAt, let progress) = PageVerdict(
                outcome, of: claimed, pageStart: 40, stopped: nil, retry: Self.retry, now: now)
        else {
            Issue.record("handed back while attempts are left")
            return
        }
        #expect(retryAt > now && retryAt <= now + 60)
        #expect(progress.cursor == 40, "the page is sent again next time")
        #expect(progress.sent == 0 && progress.failed == 0)
        #expect(progress.retried == 4, "the retries are counted now")
    }

    @Test func aDispatchOutOfAttemptsGivesUpAndSaysSo() {
        let claimed = Self.claimed(attempts: 3)
        let outcome = Self.outcome([Self.unreachable, Self.unreachable], of: claimed)
        guard
            case .finish(let status, let progress, let log) = PageVerdict(
                outcome, of: claimed, pageStart: 40, stopped: nil, retry: Self.retry)
        else {
            Issue.record("given up after its last attempt")
            return
        }
        #expect(status == .failed)
        #expect(progress.failed == 2)
        #expect(log.count == 1)
        #expect(log.first?.dispatchID == claimed.dispatch.id)
    }

    @Test func aDispatchThatWouldExpireBeforeItsRetryGivesUp() {
        let claimed = Self.claimed(attempts: 1, expiresIn: 5)
        let outcome = Self.outcome([Self.unreachable], of: claimed)
        guard case .finish(.failed, _, let log) = PageVerdict(outcome, of: claimed, pageStart: 40, stopped: nil, retry: Self.retry) else {
            Issue.record("not handed back past its expiry")
            return
        }
        #expect(log.count == 1)
    }

    @Test func aStoppedDispatchIsNotHandedBack() {
        let claimed = Self.claimed(attempts: 1)
        let outcome = Self.outcome([Self.unreachable, nil], of: claimed)
        guard case .record(let progress) = PageVerdict(outcome, of: claimed, pageStart: 40, stopped: .superseded, retry: Self.retry) else {
            Issue.record("a superseded dispatch ends with what it sent")
            return
        }
        #expect(progress.failed == 1)
    }

    @Test func aRejectedCredentialEndsTheDispatchWithOneEntry() {
        let claimed = Self.claimed()
        let outcome = Self.outcome(
            [.credentialRejected(reason: .invalidProviderToken), .credentialRejected(reason: .invalidProviderToken), .delivered],
            of: claimed)
        guard
            case .finish(let status, let progress, let log) = PageVerdict(
                outcome, of: claimed, pageStart: 40, stopped: nil, retry: Self.retry)
        else {
            Issue.record("a credential APNs rejects stops the dispatch")
            return
        }
        #expect(status == .failed)
        #expect(progress.sent == 1)
        #expect(log.count == 1, "one entry for the credential, not one per device")
        #expect(progress.log.isEmpty)
    }
}
