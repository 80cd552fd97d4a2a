/// The kind of an event LiveGate gives out (webhooks, `GET /events`). Open-ended, like the activity
/// log's types: an endpoint may name only these.
package struct EventType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }
    package var description: String { rawValue }

    /// A message call was accepted (201): an update, end or start, before any push.
    package static let dispatchAccepted = EventType(rawValue: "dispatch.accepted")
    /// APNs accepted one device's push (200).
    package static let pushSent = EventType(rawValue: "push.sent")
    /// One device's push ended without APNs's 200: refused, token dead, or given up.
    package static let pushFailed = EventType(rawValue: "push.failed")
    /// A dispatch finished: every device it had was tried (or it ended without any).
    package static let dispatchDone = EventType(rawValue: "dispatch.done")
    /// A newer update or end covered a dispatch before all of it went.
    package static let dispatchSuperseded = EventType(rawValue: "dispatch.superseded")
    /// `DELETE` stopped a dispatch.
    package static let dispatchCancelled = EventType(rawValue: "dispatch.cancelled")
    /// A device registered a token it did not have (an update token under a tag, or a push-to-start token).
    package static let tokenRegistered = EventType(rawValue: "token.registered")
    /// A device replaced its token with another.
    package static let tokenRotated = EventType(rawValue: "token.rotated")
    /// A token is gone: the app removed it, APNs called it dead, or its activity ended on the device.
    package static let tokenRemoved = EventType(rawValue: "token.removed")
    /// The app reported an activity's state on a device (`POST /live_activity/device_state`).
    package static let deviceState = EventType(rawValue: "device.state")
    /// A push-to-start showed up on its device.
    package static let startConfirmed = EventType(rawValue: "start.confirmed")
    /// A push-to-start APNs accepted never showed up on its device within the confirmation window.
    package static let startUnconfirmed = EventType(rawValue: "start.unconfirmed")

    package static let all: [EventType] = [
        .dispatchAccepted, .pushSent, .pushFailed, .dispatchDone, .dispatchSuperseded, .dispatchCancelled, .tokenRegistered,
        .tokenRotated, .tokenRemoved, .deviceState, .startConfirmed, .startUnconfirmed,
    ]
}
