import APNsClient
import APNsCore
import LiveGateDomain

/// What sending one page of a fan-out came to: the progress to record, and whether the rest of the
/// dispatch can go on.
struct PageOutcome: Sendable {
    var progress: FanoutProgress
    /// Set when the app's credential failed: the dispatch stops, with this one entry.
    var credentialProblem: ActivityLogEntry?
    /// Set when no push of the page reached APNs: the dispatch is worth retrying later as a whole.
    var unreachable: PushResult.RetriableProblem?

    /// Tallies each device's result: counts, tokens to remove or retire, log entries, and with
    /// `recordsPushes` each push for its event. A nil result is a push not sent because the dispatch was
    /// stopped: it counts nowhere.
    init(page: [FanoutTarget], results: [SentPush?], dispatch: Dispatch, recordsPushes: Bool = false) {
        progress = FanoutProgress(cursor: page.last?.cursor ?? 0)
        var unreachableCount = 0
        var lastUnreachable: PushResult.RetriableProblem?
        for (target, sent) in zip(page, results) {
            guard let sent else { continue }
            progress.retried += sent.retries
            if sent.throttling.answers > 0 {
                progress.throttled += sent.throttling.answers
                if progress.throttledEntry == nil {
                    progress.throttledEntry = DeliveryLogEntries.throttled(
                        sent.throttling, target: target, push: sent.push, dispatch: dispatch)
                }
            }
            if let status = sent.result.apnsStatus {
                progress.answers.append(DeviceAnswer(dispatchID: dispatch.id, cursor: target.cursor, status: status))
            }
            if recordsPushes {
                progress.pushes.append(
                    PushRecord(
                        maskedToken: String(target.token.hex.suffix(8)), externalID: target.externalID, status: sent.result.apnsStatus,
                        reason: sent.result.apnsReason?.rawValue, apnsID: sent.push.apnsID, priority: sent.push.priority.rawValue))
            }
            switch sent.result {
            case .delivered:
                progress.sent += 1
                if dispatch.event == .end { progress.endedTokens.append(target) }
                continue
            case .tokenRemoved:
                progress.removed += 1
                progress.deadTokens.append(target.token)
            case .gaveUp(_, let problem) where sent.result.isUnreachable:
                unreachableCount += 1
                lastUnreachable = problem
            default:
                break
            }
            progress.failed += 1
            let entry = DeliveryLogEntries.entry(for: sent.result, target: target, push: sent.push, dispatch: dispatch)
            if sent.result.isCredentialProblem {
                if credentialProblem == nil { credentialProblem = entry }
            } else if let entry {
                progress.log.append(entry)
            }
        }
        if unreachableCount == page.count, !page.isEmpty { unreachable = lastUnreachable }
    }
}
