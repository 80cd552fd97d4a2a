import APNsCore
import Foundation
import LiveGateDomain
import Testing

/// A dispatch's life in a delivery, event by event, without PostgreSQL or sockets: every rule a fan-out
/// and a batch of small dispatches share.
@Suite("A dispatch's life")
struct DispatchLifeTests {
    static let retry = RetryPolicy(maximumAttempts: 3, baseDelay: .seconds(10), maximumDelay: .seconds(60))
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let credentialEntry = ActivityLogEntry(type: .invalidPushCredential, message: "APNs refused the key")

    static func claimed(
        _ event: LiveActivityEvent = .update, attempts: Int = 1, expiresIn seconds: TimeInterval = 3_600, cursor: Int64 = 0,
        externalID: String? = nil, sendAt: Date? = nil, audience: DispatchAudience? = nil, stop: DispatchStop? = nil,
        broadcastRecorded: Bool = false
    ) -> ClaimedDispatch {
        ClaimedDispatch(
            dispatch: Dispatch(
                workspaceID: UUID(), appID: UUID(), event: event, activityID: "order-1", externalID: externalID,
                payload: Array(#"{"aps":{}}"#.utf8), priority: .immediate, expiresAt: now + seconds, sendAt: sendAt,
                audience: audience),
            createdAt: now, fanoutCursor: cursor, attempts: attempts, broadcastRecorded: broadcastRecorded, stop: stop)
    }

    static func life(_ claimed: ClaimedDispatch = claimed(), supersedes: Bool = true) -> DispatchLife {
        DispatchLife(claimed, retry: retry, supersedes: supersedes)
    }

    /// A life whose first page is going out.
    static func sending(_ claimed: ClaimedDispatch = claimed(), supersedes: Bool = false) -> DispatchLife {
        var life = life(claimed, supersedes: supersedes)
        #expect(life.begin(app: .ready, stop: nil, now: now) == .send)
        return life
    }

    static let audience = DispatchAudience(attributesType: "DeliveryAttributes", customAudience: nil, segmentID: UUID())

    // MARK: Before the first push

    @Test(arguments: [DispatchStop.superseded, .cancelled])
    func aStopBeforeTheDeliveryEndsItWithNothingSent(stop: DispatchStop) {
        var atClaim = Self.life(Self.claimed(stop: stop))
        #expect(atClaim.begin(app: .ready, stop: nil, now: Self.now) == .finish(stop.status, nil, .stopped))
        #expect(atClaim.state == .ended(.finished(stop.status)))
        var sinceClaim = Self.life()
        #expect(sinceClaim.begin(app: .deleted, stop: stop, now: Self.now) == .finish(stop.status, nil, .stopped))
    }

    @Test func aDeletedAppFailsTheDispatch() {
        var life = Self.life()
        #expect(life.begin(app: .deleted, stop: nil, now: Self.now) == .finish(.failed, nil, .appDeleted))
    }

    @Test func anExpiredDispatchFailsAndSaysSo() {
        var life = Self.life(Self.claimed(expiresIn: -1))
        #expect(life.begin(app: .ready, stop: nil, now: Self.now) == .finish(.failed, nil, .expired))
    }

    @Test func anAppWithoutCredentialFailsTheDispatch() {
        var life = Self.life()
        #expect(life.begin(app: .noCredential, stop: nil, now: Self.now) == .finish(.failed, nil, .noCredential))
    }

    @Test func anUpdateWaitsForOlderDeliveriesWhenUpdatesSupersede() {
        var life = Self.life(supersedes: true)
        #expect(life.begin(app: .ready, stop: nil, now: Self.now) == .prepare([.waitForOlder]))
        #expect(life.state == .preparing)
        #expect(life.prepared() == .send)
        #expect(life.state == .sending)
        var without = Self.life(supersedes: false)
        #expect(without.begin(app: .ready, stop: nil, now: Self.now) == .send)
    }

    @Test func aStartToAUserSupersedesNothingAndSendsAtOnce() {
        var life = Self.life(Self.claimed(.start, externalID: "user-1"), supersedes: true)
        #expect(life.begin(app: .ready, stop: nil, now: Self.now) == .send)
    }

    @Test func aScheduledEndEndsItsChannelFirst() {
        var life = Self.life(Self.claimed(.end, sendAt: Self.now - 1), supersedes: true)
        #expect(life.isScheduledEnd)
        #expect(life.begin(app: .ready, stop: nil, now: Self.now) == .prepare([.endChannel, .waitForOlder]))
        var toAUser = Self.life(Self.claimed(.end, externalID: "user-1", sendAt: Self.now - 1), supersedes: false)
        #expect(!toAUser.isScheduledEnd, "an end narrowed to one user leaves the activity's channel alone")
        #expect(toAUser.begin(app: .ready, stop: nil, now: Self.now) == .send)
    }

    @Test func aStartToAnAudienceReadsItFirstThenWaitsForOlderStarts() {
        var life = Self.life(Self.claimed(.start, audience: Self.audience), supersedes: true)
        #expect(life.begin(app: .ready, stop: nil, now: Self.now) == .readAudience)
        #expect(life.state == .readingAudience)
        #expect(life.audienceRead(app: .ready) == .prepare([.waitForOlder]))
    }

    @Test func anAudienceReadBeforeTheCredentialIsChecked() {
        var life = Self.life(Self.claimed(.start, audience: Self.audience))
        #expect(life.begin(app: .noCredential, stop: nil, now: Self.now) == .readAudience)
        #expect(life.audienceRead(app: .noCredential) == .finish(.failed, nil, .noCredential))
    }

    @Test func anAudienceGoneFailsTheDispatchWithItsEntry() {
        let entry = ActivityLogEntry(type: .other, message: "segment deleted")
        var life = Self.life(Self.claimed(.start, audience: Self.audience))
        _ = life.begin(app: .ready, stop: nil, now: Self.now)
        #expect(life.audienceUnavailable(entry: entry) == .finish(.failed, nil, .audienceUnavailable(entry)))
        #expect(life.state == .ended(.finished(.failed)))
    }

    @Test func whatMayGoInABatch() {
        #expect(Self.life().mayGoInABatch(now: Self.now))
        #expect(Self.life(Self.claimed(.start, externalID: "user-1")).mayGoInABatch(now: Self.now))
        #expect(!Self.life(Self.claimed(.end, sendAt: Self.now - 1)).mayGoInABatch(now: Self.now), "a scheduled end")
        #expect(!Self.life(Self.claimed(.start, audience: Self.audience)).mayGoInABatch(now: Self.now), "an audience")
        #expect(!Self.life(Self.claimed(broadcastRecorded: true)).mayGoInABatch(now: Self.now), "resumed after its broadcast")
        #expect(!Self.life(Self.claimed(expiresIn: -1)).mayGoInABatch(now: Self.now), "expired")
    }

    // MARK: Ownership, broadcast and stops

    @Test func aDispatchStillOwnedGoesOn() {
        var life = Self.sending()
        #expect(life.ownership(confirmed: true, leaseLost: false, now: Self.now) == nil)
        #expect(life.state == .sending)
    }

    @Test func aLostLeaseLeavesTheDispatchToItsNewWorker() {
        var life = Self.sending()
        #expect(life.ownership(confirmed: false, leaseLost: true, now: Self.now) == .abandon)
        #expect(life.state == .ended(nil))
    }

    @Test func aDispatchNotProvenOwnIsHandedBackDueNow() {
        var life = Self.sending()
        #expect(life.ownership(confirmed: false, leaseLost: false, now: Self.now) == .handBack(at: Self.now, nil, .notResumedHere))
        #expect(life.state == .ended(.handedBack(retryAt: Self.now)))
    }

    @Test func aBroadcastRefusedForTheCredentialEndsTheDispatch() {
        var refused = Self.sending()
        #expect(
            refused.broadcastRecorded(leaseKept: true, credentialRejected: true, entry: Self.credentialEntry)
                == .finish(.failed, nil, .credentialRejected(Self.credentialEntry)))
        var lost = Self.sending()
        #expect(lost.broadcastRecorded(leaseKept: false, credentialRejected: false, entry: nil) == .abandon)
        var taken = Self.sending()
        #expect(taken.broadcastRecorded(leaseKept: true, credentialRejected: false, entry: nil) == nil)
        #expect(taken.state == .sending)
    }

    @Test(arguments: [DispatchStop.superseded, .cancelled])
    func aStopBetweenPagesEndsTheDispatchWithWhatItSent(stop: DispatchStop) {
        var life = Self.sending()
        #expect(life.stopped(stop) == .finish(stop.status, nil, .stopped))
    }

    // MARK: Devices

    @Test func aDispatchWithNoDeviceSaysNoTokenWasRegistered() {
        var life = Self.sending()
        #expect(life.noTargets(broadcastDelivered: false) == .finish(.done, nil, .noTokens))
    }

    @Test func aDispatchWithNoDeviceLeftOrReachedThroughItsChannelIsSimplyDone() {
        var resumed = Self.sending(Self.claimed(cursor: 40))
        #expect(resumed.noTargets(broadcastDelivered: false) == .finish(.done, nil, .delivered))
        var broadcast = Self.sending()
        #expect(broadcast.noTargets(broadcastDelivered: true) == .finish(.done, nil, .delivered))
        var earlierBroadcast = Self.sending(Self.claimed(broadcastRecorded: true))
        #expect(earlierBroadcast.noTargets(broadcastDelivered: false) == .finish(.done, nil, .delivered))
    }

    // MARK: A page's answers

    static let progress = FanoutProgress(cursor: 43, sent: 1, failed: 2, retried: 6)

    static func answered(
        _ life: inout DispatchLife, credential: ActivityLogEntry? = nil, unreachable: Bool = false, stop: DispatchStop? = nil,
        following: DispatchLife.FollowingPage
    ) -> DispatchLife.Action {
        life.pageAnswered(
            progress: progress, credentialProblem: credential, unreachable: unreachable, pageStart: 40, stop: stop,
            following: following, now: now)
    }

    @Test func theLastPageAnsweredFinishesTheDispatchWithItsCounts() {
        var life = Self.sending()
        #expect(Self.answered(&life, following: .none) == .finish(.done, Self.progress, .delivered))
        #expect(life.state == .ended(.finished(.done)))
    }

    @Test func aPageWithTheNextGoingOutIsRecordedAndTheDispatchGoesOn() {
        var life = Self.sending()
        #expect(Self.answered(&life, following: .sending) == .record(Self.progress))
        #expect(life.state == .recording(then: nil))
        #expect(life.recorded(leaseKept: true) == nil)
        #expect(life.state == .sending)
        #expect(Self.answered(&life, following: .none) == .finish(.done, Self.progress, .delivered))
    }

    @Test func aRecordThatFindsTheLeaseLostLeavesTheDispatch() {
        var life = Self.sending()
        _ = Self.answered(&life, following: .sending)
        #expect(life.recorded(leaseKept: false) == .abandon)
        #expect(life.state == .ended(nil))
    }

    @Test func aPageAfterWhichTheLeaseWasLostIsRecordedThenLeft() {
        var life = Self.sending()
        #expect(Self.answered(&life, following: .leaseLost) == .record(Self.progress))
        #expect(life.recorded(leaseKept: true) == .abandon)
    }

    @Test func aPageAfterWhichTheGatewayStopsIsRecordedThenHandedBackDueNow() {
        var life = Self.sending()
        #expect(Self.answered(&life, following: .notResumedHere) == .record(Self.progress))
        #expect(life.recorded(leaseKept: true) == .handBack(at: Self.now, nil, .notResumedHere))
        #expect(life.state == .ended(.handedBack(retryAt: Self.now)))
    }

    @Test(arguments: [DispatchStop.superseded, .cancelled], [DispatchLife.FollowingPage.none, .leaseLost, .notResumedHere])
    func aStoppedDispatchEndsWithWhatItsLastPageSent(stop: DispatchStop, following: DispatchLife.FollowingPage) {
        var life = Self.sending()
        #expect(Self.answered(&life, stop: stop, following: following) == .finish(stop.status, Self.progress, .stopped))
    }

    @Test func aStopWhileTheNextPageIsGoingOutRecordsThatPageToo() {
        var life = Self.sending()
        #expect(Self.answered(&life, stop: .superseded, following: .sending) == .record(Self.progress))
        #expect(life.recorded(leaseKept: true) == nil)
        #expect(Self.answered(&life, stop: .superseded, following: .none) == .finish(.superseded, Self.progress, .stopped))
    }

    @Test func aPageNoPushOfWhichGotThroughIsHandedBackFromItsStart() {
        var life = Self.sending(Self.claimed(attempts: 1))
        guard case .handBack(let retryAt, let progress?, .apnsUnreachable) = Self.answered(&life, unreachable: true, following: .sending)
        else {
            Issue.record("handed back while attempts are left")
            return
        }
        #expect(retryAt >= Self.now + 5 && retryAt <= Self.now + 10, "half to all of the first delay")
        #expect(progress == FanoutProgress(cursor: 40, retried: 6), "only the retries: the page is sent again next time")
        #expect(life.state == .ended(.handedBack(retryAt: retryAt)))
    }

    @Test func theDelayGrowsWithTheAttempts() {
        var life = Self.sending(Self.claimed(attempts: 2))
        guard case .handBack(let retryAt, _, _) = Self.answered(&life, unreachable: true, following: .none) else {
            Issue.record("handed back on its second attempt")
            return
        }
        #expect(retryAt >= Self.now + 10 && retryAt <= Self.now + 20)
    }

    @Test func aDispatchOutOfAttemptsGivesUp() {
        var life = Self.sending(Self.claimed(attempts: 3))
        #expect(Self.answered(&life, unreachable: true, following: .none) == .finish(.failed, Self.progress, .gaveUp))
    }

    @Test func aDispatchThatWouldExpireBeforeItsRetryGivesUp() {
        var life = Self.sending(Self.claimed(attempts: 1, expiresIn: 5))
        #expect(Self.answered(&life, unreachable: true, following: .sending) == .finish(.failed, Self.progress, .gaveUp))
    }

    @Test func aStoppedDispatchIsNotHandedBackForAPNs() {
        var life = Self.sending()
        #expect(
            Self.answered(&life, unreachable: true, stop: .superseded, following: .none)
                == .finish(.superseded, Self.progress, .stopped))
    }

    @Test func aRejectedCredentialEndsTheDispatchWhateverFollows() {
        for following in [DispatchLife.FollowingPage.none, .sending, .leaseLost, .notResumedHere] {
            var life = Self.sending()
            #expect(
                Self.answered(&life, credential: Self.credentialEntry, unreachable: true, stop: .cancelled, following: following)
                    == .finish(.failed, Self.progress, .credentialRejected(Self.credentialEntry)))
        }
    }

    // MARK: Failures and endings

    @Test func aDatabaseThatCannotBeReachedHandsTheDispatchBackDueNow() {
        #expect(DispatchLife.dueAfterFailure(databaseUnavailable: true, now: Self.now, retry: Self.retry) == Self.now)
        #expect(
            DispatchLife.dueAfterFailure(databaseUnavailable: false, now: Self.now, retry: Self.retry) == Self.now + 10,
            "a step the database refused waits the first retry's delay")
    }

    @Test func howEachActionEndsTheDispatch() {
        #expect(DispatchLife.ending(of: .finish(.done, nil, .delivered)) == .finished(.done))
        #expect(DispatchLife.ending(of: .handBack(at: Self.now, nil, .apnsUnreachable)) == .handedBack(retryAt: Self.now))
        #expect(DispatchLife.ending(of: .abandon) == nil)
        #expect(DispatchLife.ending(of: .send) == nil)
    }

    /// A fan-out of three pages, the second of which comes back with the dispatch superseded.
    @Test func aFanOutWalkedFromClaimToEnd() {
        var life = Self.life(Self.claimed(), supersedes: true)
        #expect(life.begin(app: .ready, stop: nil, now: Self.now) == .prepare([.waitForOlder]))
        #expect(life.prepared() == .send)
        #expect(life.ownership(confirmed: true, leaseLost: false, now: Self.now) == nil)
        #expect(life.broadcastRecorded(leaseKept: true, credentialRejected: false, entry: nil) == nil)
        #expect(Self.answered(&life, following: .sending) == .record(Self.progress))
        #expect(life.recorded(leaseKept: true) == nil)
        #expect(Self.answered(&life, stop: .superseded, following: .sending) == .record(Self.progress))
        #expect(life.recorded(leaseKept: true) == nil)
        #expect(Self.answered(&life, stop: .superseded, following: .notResumedHere) == .finish(.superseded, Self.progress, .stopped))
        #expect(life.state == .ended(.finished(.superseded)))
    }
}
