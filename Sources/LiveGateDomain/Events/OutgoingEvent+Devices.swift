import APNsCore
import CivilTime
import Foundation

extension OutgoingEvent {
    /// A state the app reported and LiveGate applied (not one older than what it had).
    package static func deviceState(_ report: DeviceStateReport, app: App) -> OutgoingEvent {
        var event = OutgoingEvent(.deviceState, workspaceID: app.workspaceID, appID: app.id)
        event.set("activity_id", report.activityID)
        event.set("dispatch_id", nil as String?)
        event.set("external_id", report.externalID)
        event.set("device_id", report.deviceID)
        event.set("state", report.state.rawValue)
        event.set("channel_id", report.channelID)
        event.fields.set("frequent_pushes_enabled", report.frequentPushesEnabled.map(JSONValue.bool) ?? .null)
        event.set(
            "reported_at",
            report.reportedAt.map { UTCTimestamp.iso8601(Int64(($0.timeIntervalSince1970 * 1_000).rounded()), unitsPerSecond: 1_000) })
        return event
    }

    /// A token registered, rotated or removed on a device: an update token under a tag (`activity_id`)
    /// or a push-to-start token of a type (`activity_attributes_type`), masked to its last 8 hex digits.
    /// `reason` says why a token was removed: `unregistered` (the app said so), `apns` (APNs called it
    /// dead), `ended` (its activity ended on the device); `expired` (not refreshed within its lifetime,
    /// retired by housekeeping) is written in SQL (`Housekeeping.retireStaleTokens`).
    package static func token(
        _ type: EventType, kind: TokenRegistration.Kind, app: App, deviceID: String, externalID: String?, token: String?,
        previousToken: String? = nil, reason: String? = nil
    ) -> OutgoingEvent {
        self.token(
            type, kind: kind, workspaceID: app.workspaceID, appID: app.id, deviceID: deviceID, externalID: externalID, token: token,
            previousToken: previousToken, reason: reason)
    }

    package static func token(
        _ type: EventType, kind: TokenRegistration.Kind, workspaceID: UUID, appID: UUID, deviceID: String, externalID: String?,
        token: String?, previousToken: String? = nil, reason: String? = nil
    ) -> OutgoingEvent {
        var event = OutgoingEvent(type, workspaceID: workspaceID, appID: appID)
        switch kind {
        case .activity(let tag):
            event.set("activity_id", tag)
            event.set("token_kind", "update")
            event.set("activity_attributes_type", nil as String?)
        case .pushToStart(let attributesType):
            event.set("activity_id", nil as String?)
            event.set("token_kind", "push_to_start")
            event.set("activity_attributes_type", attributesType)
        }
        event.set("external_id", externalID)
        event.set("device_id", deviceID)
        event.set("token", token.map { String($0.suffix(8)) })
        if type == .tokenRotated { event.set("previous_token", previousToken.map { String($0.suffix(8)) }) }
        if type == .tokenRemoved { event.set("reason", reason) }
        return event
    }
}
