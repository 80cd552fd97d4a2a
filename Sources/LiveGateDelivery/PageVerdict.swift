import Foundation
import LiveGateDomain
import Logging
import UUIDText

/// What becomes of a dispatch once a page's answers are in: the one rule that a fan-out's pages and a
/// small dispatch's only page both follow. Decided from the answers alone, without I/O.
enum PageVerdict: Sendable {
    /// Record the page; the dispatch goes on to its next page, or ends as its stop says when that was its
    /// last.
    case record(FanoutProgress)
    /// Record the page and end the dispatch: the app's credential failed, or APNs stayed out of reach for
    /// every try the dispatch is allowed.
    case finish(DispatchState, FanoutProgress, log: [ActivityLogEntry])
    /// No push of the page reached APNs: record only the retries (the cursor stays at the page's start,
    /// so the page is sent again) and hand the dispatch back, due at `retryAt`.
    case handBack(retryAt: Date, FanoutProgress)

    /// The verdict on a page that started at `pageStart`. A dispatch stopped meanwhile (`stopped`) is not
    /// handed back: it ends with what it sent.
    init(
        _ outcome: PageOutcome, of claimed: ClaimedDispatch, pageStart: Int64, stopped: DispatchStop?, retry: RetryPolicy,
        now: Date = Date()
    ) {
        if let problem = outcome.credentialProblem {
            self = .finish(.failed, outcome.progress, log: [problem])
            return
        }
        guard let problem = outcome.unreachable, stopped == nil else {
            self = .record(outcome.progress)
            return
        }
        let dispatch = claimed.dispatch
        let retryAt = now + retry.delay(afterAttempt: claimed.attempts)
        if claimed.attempts < retry.maximumAttempts, retryAt < dispatch.expiresAt {
            self = .handBack(retryAt: retryAt, FanoutProgress(cursor: pageStart, retried: outcome.progress.retried))
        } else {
            self = .finish(
                .failed, outcome.progress,
                log: [DeliveryLogEntries.gaveUpOnDispatch(dispatch, attempts: claimed.attempts, problem: problem)])
        }
    }

    /// Says in the log that the dispatch is handed back for APNs.
    static func logHandBack(of claimed: ClaimedDispatch, retryAt: Date, to logger: Logger) {
        logger.warning(
            "APNs unreachable; dispatch handed back for later",
            metadata: ["dispatch_id": "\(claimed.dispatch.id.lowercasedText)", "attempt": "\(claimed.attempts)", "retry_at": "\(retryAt)"])
    }
}
