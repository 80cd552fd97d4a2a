import APNsCore
import Foundation

/// The life of one claimed dispatch in a delivery, as a state machine without I/O: the delivery tells it
/// what happened and carries out the action it answers. Every rule of a dispatch's delivery lives here
/// once, whatever shape the delivery takes (a fan-out page by page, or a small dispatch as a batch of one
/// page): a stop (superseded or cancelled) ends it with what it sent; what must happen before the first
/// push; each page's verdict (go on, hand back for APNs, give up, the credential failed); a lease or the
/// session lost; the database failing; the gateway stopping.
package struct DispatchLife: Sendable {
    package enum State: Sendable, Equatable {
        /// Claimed (or handed over); nothing decided yet.
        case claimed
        /// Waiting for the audience to be read.
        case readingAudience
        /// Checked; doing what must come before its first push.
        case preparing
        /// Its broadcast and pages going out: the next event is their answers, or a stop.
        case sending
        /// A page's progress is being recorded; `then` is what follows once it is.
        case recording(then: Action?)
        /// Over, as `ending` says (nil: another worker has it now).
        case ended(DispatchEnding?)
    }

    /// What must happen before a dispatch's first push, in this order.
    package enum Preparation: Sendable, Equatable {
        /// A scheduled end ends the activity (and its channel) when it goes, not when it was accepted.
        case endChannel
        /// Older deliveries this dispatch superseded may still have pushes out: wait for them, briefly,
        /// so a device never gets the older state after this one.
        case waitForOlder
    }

    package enum Action: Sendable, Equatable {
        /// Read the audience of a start to an audience (its segment looked up), then say `audienceRead`.
        case readAudience
        /// Do these, then say `prepared`.
        case prepare([Preparation])
        /// Send the dispatch's pages, from its cursor on.
        case send
        /// Record the page's progress, then say `recorded`.
        case record(FanoutProgress)
        /// End the dispatch with `status`, recording `progress` with it when there is one.
        case finish(DispatchState, FanoutProgress?, FinishReason)
        /// Hand the dispatch back, due at `at`, recording `progress` with it when there is one.
        case handBack(at: Date, FanoutProgress?, HandBackReason)
        /// Another worker holds the dispatch now: touch nothing.
        case abandon

        /// Whether this asks for something before the first push.
        package var isPreparation: Bool {
            if case .prepare = self { return true }
            return false
        }
    }

    /// Why a dispatch ends: which log entries go with its end.
    package enum FinishReason: Sendable, Equatable {
        /// Every device's push was answered (or none was needed beyond a broadcast).
        case delivered
        /// Superseded or cancelled: it ends with what it sent.
        case stopped
        /// It has no device to push to, and no broadcast reached its channel: "no token registered".
        case noTokens
        case appDeleted
        /// Its expiry passed before it could be sent.
        case expired
        /// Its audience's segment is gone: the entry says so.
        case audienceUnavailable(ActivityLogEntry?)
        /// The app has no APNs signing key.
        case noCredential
        /// APNs refused the app's credential: this one entry says so.
        case credentialRejected(ActivityLogEntry?)
        /// APNs stayed out of reach for every try the dispatch is allowed.
        case gaveUp
    }

    package enum HandBackReason: Sendable, Equatable {
        /// No push of a page reached APNs: the page is sent again later.
        case apnsUnreachable
        /// The worker could not prove the dispatch is still its own (its session was lost), or the
        /// gateway is stopping: another worker, or this one later, resumes it.
        case notResumedHere
    }

    /// What the delivery knows of the dispatch's app when it begins.
    package enum AppReadiness: Sendable, Equatable {
        case deleted
        /// The app exists but cannot sign pushes.
        case noCredential
        case ready
    }

    /// What happens after the page being answered.
    package enum FollowingPage: Sendable, Equatable {
        /// That was the last page.
        case none
        /// The next page's pushes are already going out.
        case sending
        /// A next page exists but was not started: the lease was lost.
        case leaseLost
        /// A next page exists but was not started: the gateway is stopping, or the worker could not prove
        /// the dispatch its own.
        case notResumedHere
    }

    package private(set) var state: State = .claimed
    package let claimed: ClaimedDispatch
    /// How often, and after how long, a dispatch APNs could not be reached for is tried again.
    package let retry: RetryPolicy
    /// Whether a newer update supersedes older deliveries to its devices (`LIVEGATE_SUPERSEDE`).
    package let supersedes: Bool

    package init(_ claimed: ClaimedDispatch, retry: RetryPolicy, supersedes: Bool) {
        self.claimed = claimed
        self.retry = retry
        self.supersedes = supersedes
    }

    private var dispatch: Dispatch { claimed.dispatch }

    /// The delivery begins, knowing the app and any stop raised since the claim.
    package mutating func begin(app: AppReadiness, stop: DispatchStop?, now: Date) -> Action {
        precondition(state == .claimed, "begin twice")
        if let stop = stop ?? claimed.stop { return end(.finish(stop.status, nil, .stopped)) }
        switch app {
        case .deleted: return end(.finish(.failed, nil, .appDeleted))
        case .noCredential, .ready: break
        }
        if dispatch.expiresAt < now { return end(.finish(.failed, nil, .expired)) }
        if dispatch.audience != nil, claimed.audience == nil {
            state = .readingAudience
            return .readAudience
        }
        return afterAudience(app: app)
    }

    /// The audience of a start to an audience was read.
    package mutating func audienceRead(app: AppReadiness) -> Action {
        precondition(state == .readingAudience, "no audience was being read")
        return afterAudience(app: app)
    }

    /// The audience could not be read (its segment is gone), as `entry` says.
    package mutating func audienceUnavailable(entry: ActivityLogEntry?) -> Action {
        precondition(state == .readingAudience, "no audience was being read")
        return end(.finish(.failed, nil, .audienceUnavailable(entry)))
    }

    private mutating func afterAudience(app: AppReadiness) -> Action {
        if app == .noCredential { return end(.finish(.failed, nil, .noCredential)) }
        var steps: [Preparation] = []
        if isScheduledEnd { steps.append(.endChannel) }
        if mayWaitForOlder { steps.append(.waitForOlder) }
        if steps.isEmpty {
            state = .sending
            return .send
        }
        state = .preparing
        return .prepare(steps)
    }

    /// What was to come before the first push is done.
    package mutating func prepared() -> Action {
        precondition(state == .preparing, "nothing was being prepared")
        state = .sending
        return .send
    }

    /// A scheduled end (an `end` to an activity, with `send_at`): its channel ends when it goes.
    package var isScheduledEnd: Bool { dispatch.event == .end && dispatch.externalID == nil && dispatch.sendAt != nil }

    /// Older deliveries may show an older state after this one: an update or end, or a start to an
    /// audience (a start to a user creates activities, it supersedes nothing).
    package var mayWaitForOlder: Bool { supersedes && (dispatch.event != .start || dispatch.audience != nil) }

    /// Whether the dispatch may go as a batch of one page with others: it needs nothing before its
    /// first push but, perhaps, waiting for older deliveries, and no broadcast of it went yet (a start to
    /// an audience is a fan-out whose size only its pages tell). Its devices must fit one page too.
    package func mayGoInABatch(now: Date) -> Bool {
        !isScheduledEnd && dispatch.audience == nil && !claimed.broadcastRecorded && dispatch.expiresAt > now
    }

    /// A stop arrived before the dispatch's next page went (or its first): it ends with what it sent.
    package mutating func stopped(_ stop: DispatchStop) -> Action {
        end(.finish(stop.status, nil, .stopped))
    }

    /// The dispatch's broadcast was answered and recorded (`leaseKept` false: another worker holds the
    /// dispatch now). APNs refusing the app's credential ends it: the tokens would be refused alike.
    /// Nil: on to the tokens.
    package mutating func broadcastRecorded(leaseKept: Bool, credentialRejected: Bool, entry: ActivityLogEntry?) -> Action? {
        precondition(state == .sending, "no broadcast was being sent")
        guard leaseKept else { return end(.abandon) }
        if credentialRejected { return end(.finish(.failed, nil, .credentialRejected(entry))) }
        return nil
    }

    /// The worker checked, before sending more, that the dispatch is still its own: nil to go on.
    package mutating func ownership(confirmed: Bool, leaseLost: Bool, now: Date) -> Action? {
        if confirmed { return nil }
        return end(leaseLost ? .abandon : .handBack(at: now, nil, .notResumedHere))
    }

    /// The dispatch has no device left to push to from where it starts; `broadcastDelivered`: its
    /// broadcast reached the channel now.
    package mutating func noTargets(broadcastDelivered: Bool) -> Action {
        let nobody = claimed.fanoutCursor == 0 && !broadcastDelivered && !claimed.broadcastRecorded
        return end(.finish(.done, nil, nobody ? .noTokens : .delivered))
    }

    /// A page's answers are in. `pageStart`: the cursor the page started after; `stop`: a stop raised
    /// meanwhile; `following`: what became of the page after it. The one rule every page follows, a
    /// small dispatch's only page included.
    package mutating func pageAnswered(
        progress: FanoutProgress, credentialProblem: ActivityLogEntry?, unreachable: Bool, pageStart: Int64,
        stop: DispatchStop?, following: FollowingPage, now: Date
    ) -> Action {
        precondition(state == .sending, "no page was being sent")
        if let credentialProblem { return end(.finish(.failed, progress, .credentialRejected(credentialProblem))) }
        if unreachable, stop == nil {
            // A dispatch stopped meanwhile is not handed back: it ends with what it sent.
            let retryAt = now + retry.delay(afterAttempt: claimed.attempts)
            guard claimed.attempts < retry.maximumAttempts, retryAt < dispatch.expiresAt else {
                return end(.finish(.failed, progress, .gaveUp))
            }
            // Only the retries are recorded: the cursor stays at the page's start, so the page goes again.
            var retried = FanoutProgress(cursor: pageStart)
            retried.retried = progress.retried
            return end(.handBack(at: retryAt, retried, .apnsUnreachable))
        }
        switch (following, stop) {
        case (.none, _): return end(.finish(stop?.status ?? .done, progress, stop == nil ? .delivered : .stopped))
        // The page going out after this one is recorded too before the stop ends the dispatch.
        case (.sending, _): return recording(progress, then: nil)
        case (.leaseLost, let stop?), (.notResumedHere, let stop?): return end(.finish(stop.status, progress, .stopped))
        case (.leaseLost, nil): return recording(progress, then: .abandon)
        case (.notResumedHere, nil): return recording(progress, then: .handBack(at: now, nil, .notResumedHere))
        }
    }

    /// The page's progress was recorded (`leaseKept` false: another worker holds the dispatch now).
    /// Nil: the next page's answers are awaited.
    package mutating func recorded(leaseKept: Bool) -> Action? {
        guard case .recording(let then) = state else { preconditionFailure("no page was being recorded") }
        guard leaseKept else { return end(.abandon) }
        guard let then else {
            state = .sending
            return nil
        }
        return end(then)
    }

    /// When a dispatch whose delivery failed at a step that needed the database is due again, handed
    /// back once the database answers (`unavailable`: it could not be reached): at once, or after the
    /// first retry's delay when the database refused the step itself.
    package static func dueAfterFailure(databaseUnavailable unavailable: Bool, now: Date, retry: RetryPolicy) -> Date {
        unavailable ? now : now + retry.baseDelay
    }

    /// How the dispatch ends if `action` is carried out.
    package static func ending(of action: Action) -> DispatchEnding? {
        switch action {
        case .finish(let status, _, _): .finished(status)
        case .handBack(let at, _, _): .handedBack(retryAt: at)
        default: nil
        }
    }

    private mutating func recording(_ progress: FanoutProgress, then: Action?) -> Action {
        state = .recording(then: then)
        return .record(progress)
    }

    private mutating func end(_ action: Action) -> Action {
        state = .ended(Self.ending(of: action))
        return action
    }
}
