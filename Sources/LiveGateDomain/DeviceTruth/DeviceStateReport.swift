import Foundation

/// A validated `POST /live_activity/device_state` body: an activity's state on one device (read from
/// the request by `DeviceStateReport+Parse`).
package struct DeviceStateReport: Sendable, Equatable {
    package var appID: String
    package var deviceID: String
    /// The activity's tag: the API's `activity_id`, the tag its update token is registered under.
    package var activityID: String
    package var state: ActivityDeviceState
    /// The broadcast channel the activity follows, when it was started on one.
    package var channelID: String?
    /// The device's time of the change; nil: the time the report arrives.
    package var reportedAt: Date?
    /// The user the device belongs to, when the SDK knows one: what SDK authentication checks.
    package var externalID: String?
    /// Whether the user allows the app more frequent Live Activity updates (ActivityKit's
    /// `ActivityAuthorizationInfo().frequentPushesEnabled`); nil: not reported, the stored value is kept.
    package var frequentPushesEnabled: Bool?

    package init(
        appID: String, deviceID: String, activityID: String, state: ActivityDeviceState, channelID: String? = nil,
        reportedAt: Date? = nil, externalID: String? = nil, frequentPushesEnabled: Bool? = nil
    ) {
        self.appID = appID
        self.deviceID = deviceID
        self.activityID = activityID
        self.state = state
        self.channelID = channelID
        self.reportedAt = reportedAt
        self.externalID = externalID
        self.frequentPushesEnabled = frequentPushesEnabled
    }
}
