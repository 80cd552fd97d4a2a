import Foundation
import LiveGateDomain
import Logging
import UUIDText

/// How a delivery carries out the end `DispatchLife` decides, whichever shape it has: the log entries
/// the end writes, and what its log says of a hand-back.
extension DeliveryStage {
    /// The dispatch's end as one settlement (progress, status or hand-back, log), for a batch to write
    /// with others; nil for `.abandon`. `unreachable`: what kept APNs out of reach, for a dispatch that
    /// gave up.
    func settlement(
        _ action: DispatchLife.Action, of claimed: ClaimedDispatch, unreachable: PushResult.RetriableProblem? = nil
    ) async throws -> DispatchSettlement? {
        switch action {
        case .finish(let status, let progress, let reason):
            let log = try await logEntries(for: reason, of: claimed, unreachable: unreachable)
            return DispatchSettlement(claimed, .finished(status), progress: progress, log: log)
        case .handBack(let at, let progress, let reason):
            logHandBack(of: claimed, at: at, reason)
            return DispatchSettlement(claimed, .handedBack(retryAt: at), progress: progress)
        case .abandon:
            return nil
        case .readAudience, .prepare, .send, .record:
            preconditionFailure("\(action) does not end a dispatch")
        }
    }

    /// The entries a dispatch's end writes, as its reason says.
    func logEntries(
        for reason: DispatchLife.FinishReason, of claimed: ClaimedDispatch, unreachable: PushResult.RetriableProblem?
    ) async throws -> [ActivityLogEntry] {
        let dispatch = claimed.dispatch
        switch reason {
        case .delivered, .stopped:
            return []
        case .appDeleted:
            logger.warning("dispatch dropped: its app was deleted", metadata: ["dispatch_id": "\(dispatch.id.lowercasedText)"])
            return []
        case .noTokens:
            return [DeliveryLogEntries.noTokens(dispatch)]
        case .expired:
            return [DeliveryLogEntries.expired(dispatch)]
        case .audienceUnavailable(let entry), .credentialRejected(let entry):
            return entry.map { [$0] } ?? []
        case .noCredential:
            let devices = try await queue.targetCount(of: claimed, tokenLifetime: settings.tokenLifetime)
            return [DeliveryLogEntries.noCredential(dispatch, devices: devices)]
        case .gaveUp:
            return [DeliveryLogEntries.gaveUpOnDispatch(dispatch, attempts: claimed.attempts, problem: unreachable)]
        }
    }

    /// Says in the log that the dispatch is handed back because APNs could not be reached; the other
    /// hand-backs are the engine's to tell.
    func logHandBack(of claimed: ClaimedDispatch, at retryAt: Date, _ reason: DispatchLife.HandBackReason) {
        guard reason == .apnsUnreachable else { return }
        logger.warning(
            "APNs unreachable; dispatch handed back for later",
            metadata: ["dispatch_id": "\(claimed.dispatch.id.lowercasedText)", "attempt": "\(claimed.attempts)", "retry_at": "\(retryAt)"])
    }
}
