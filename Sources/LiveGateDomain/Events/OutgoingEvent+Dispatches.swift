import APNsCore
import CivilTime
import Foundation
import UUIDText

extension OutgoingEvent {
    /// `activity_id`, `dispatch_id` and `external_id`, the fields every dispatch's event starts with.
    init(_ type: EventType, of dispatch: Dispatch) {
        self.init(type, workspaceID: dispatch.workspaceID, appID: dispatch.appID)
        set("activity_id", dispatch.activityID)
        set("dispatch_id", dispatch.id.lowercasedText)
        set("external_id", dispatch.externalID)
    }

    /// A message accepted: its event (`update`, `end`, `start`), priority and when it is to be sent.
    package static func accepted(_ dispatch: Dispatch) -> OutgoingEvent {
        var event = OutgoingEvent(.dispatchAccepted, of: dispatch)
        event.set("event", dispatch.event.rawValue)
        event.set("priority", dispatch.priority.rawValue)
        event.set(
            "send_at",
            dispatch.sendAt.map { UTCTimestamp.iso8601(Int64(($0.timeIntervalSince1970 * 1_000).rounded()), unitsPerSecond: 1_000) })
        return event
    }

    /// A dispatch's end: `dispatch.done` (its `status` `done`, or `failed` when it could not be sent),
    /// `.superseded` or `.cancelled` (nil for a state that is no end), with its devices' counts. A
    /// superseded one names the newer dispatch that superseded it (`superseded_by`).
    package static func finished(
        _ dispatch: Dispatch, state: DispatchState, counts: DispatchCounts, supersededBy: UUID? = nil
    ) -> OutgoingEvent? {
        let type: EventType
        switch state {
        case .done, .failed: type = .dispatchDone
        case .superseded: type = .dispatchSuperseded
        case .cancelled: type = .dispatchCancelled
        default: return nil
        }
        var event = OutgoingEvent(type, of: dispatch)
        event.set("event", dispatch.event.rawValue)
        event.set("status", state.rawValue)
        event.set("sent", counts.sent)
        event.set("failed", counts.failed)
        event.set("removed", counts.removed)
        if type == .dispatchSuperseded { event.set("superseded_by", supersededBy?.lowercasedText) }
        return event
    }

    /// One device's push and APNs's answer: `push.sent` for a 200, `push.failed` otherwise.
    package static func push(_ record: PushRecord, of dispatch: Dispatch) -> OutgoingEvent {
        var event = OutgoingEvent(record.status == 200 ? .pushSent : .pushFailed, of: dispatch)
        event.set("external_id", record.externalID ?? dispatch.externalID)
        event.set("token", record.maskedToken)
        event.set("apns_status", record.status)
        event.set("apns_reason", record.reason)
        event.set("apns_id", record.apnsID.lowercasedText)
        event.set("priority", record.priority)
        return event
    }
}

/// A dispatch's device counts as its end recorded them.
package struct DispatchCounts: Sendable, Equatable {
    package var sent: Int
    package var failed: Int
    package var removed: Int

    package init(sent: Int, failed: Int, removed: Int) {
        self.sent = sent
        self.failed = failed
        self.removed = removed
    }
}

/// One device's push as its event tells it: the token's last 8 hex digits, the device's user, APNs's
/// status (nil when no answer came) and reason, the `apns-id` and the priority it went at.
package struct PushRecord: Sendable, Equatable {
    package let maskedToken: String
    package let externalID: String?
    package let status: Int?
    package let reason: String?
    package let apnsID: UUID
    package let priority: Int

    package init(maskedToken: String, externalID: String?, status: Int?, reason: String?, apnsID: UUID, priority: Int) {
        self.maskedToken = maskedToken
        self.externalID = externalID
        self.status = status
        self.reason = reason
        self.apnsID = apnsID
        self.priority = priority
    }
}
