import APNsClient
import APNsCore
import Foundation
import LiveGateDomain
import Logging
import UUIDText

extension FanoutDelivery {
    /// How the dispatch's broadcast went, for its `DispatchLife` to decide what follows.
    enum BroadcastStep: Sendable, Equatable {
        /// No channel, narrowed to a user, a start, or sent by an earlier claim: nothing sent now.
        case none
        /// Sent and recorded (`leaseKept` false: the record found another worker holding the dispatch).
        /// `credentialRejected`: APNs refused the app's credential, as `entry` says. `deliveredTo`: the
        /// channel APNs took it for, whose subscribers all get the update; nil when it did not (the
        /// reason is logged), and the tokens still get their pushes.
        case recorded(leaseKept: Bool, credentialRejected: Bool, entry: ActivityLogEntry?, deliveredTo: ChannelID?)
    }

    /// An update or end that is not narrowed to one user goes, once, to its activity's channel when it
    /// has one, before the pushes to the tokens registered under the tag, which devices
    /// before iOS 18 and apps that do not subscribe still need.
    func broadcast(_ claimed: ClaimedDispatch, to destination: APNsDestination) async throws -> BroadcastStep {
        let dispatch = claimed.dispatch
        guard dispatch.event != .start, dispatch.externalID == nil, !claimed.broadcastRecorded,
            let target = try await queue.broadcastTarget(of: claimed)
        else { return .none }
        let broadcast = LiveActivityBroadcast(
            channelID: target.channelID, payload: dispatch.payload, priority: dispatch.priority,
            expiresAt: target.messageStoragePolicy == .noMessageStored ? nil : dispatch.expiresAt)
        let sent = await sending.broadcast(broadcast, to: destination)
        let outcome = BroadcastOutcome(sent.result)
        let entry = DeliveryLogEntries.broadcast(outcome, channel: target.channelID, dispatch: dispatch)
        let record = BroadcastRecord(
            channelID: target.channelID, status: outcome.status, reason: outcome.reason,
            channelGone: outcome.channelGone, log: outcome.isCredentialProblem ? [] : entry.map { [$0] } ?? [])
        logger.debug(
            "broadcast sent",
            metadata: [
                "dispatch_id": "\(dispatch.id.lowercasedText)", "status": "\(outcome.status.map(String.init) ?? "none")",
                "retries": "\(sent.retries)",
            ])
        let leaseKept = try await queue.recordBroadcast(claimed, worker: worker, record: record)
        return .recorded(
            leaseKept: leaseKept, credentialRejected: outcome.isCredentialProblem, entry: entry,
            deliveredTo: outcome.delivered ? target.channelID : nil)
    }
}

/// What one broadcast's result records: its status and reason for the dispatch and the log.
struct BroadcastOutcome: Sendable, Equatable {
    let result: BroadcastResult

    init(_ result: BroadcastResult) {
        self.result = result
    }

    var delivered: Bool { result == .delivered }

    var channelGone: Bool {
        if case .channelGone = result { return true }
        return false
    }

    var isCredentialProblem: Bool {
        switch result {
        case .credentialRejected, .credentialUnusable: true
        default: false
        }
    }

    var status: Int? {
        switch result {
        case .delivered: 200
        case .channelGone(let status, _), .refused(let status, _): status
        case .gaveUp(_, .answered(let status, _)): status
        case .credentialRejected: 403
        case .gaveUp(_, .unreachable), .credentialUnusable: nil
        }
    }

    var reason: APNsReason? {
        switch result {
        case .credentialRejected(let reason): reason
        case .channelGone(_, let reason), .refused(_, let reason), .gaveUp(_, .answered(_, let reason)): reason
        case .delivered, .gaveUp(_, .unreachable), .credentialUnusable: nil
        }
    }
}
