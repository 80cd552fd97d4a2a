import APNsCore
import Foundation

/// A validated `POST /live_activity/device_state` body: an activity's state on one device.
package struct DeviceStateReport: Sendable, Equatable, SDKCall {
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

    package init(
        appID: String, deviceID: String, activityID: String, state: ActivityDeviceState, channelID: String? = nil,
        reportedAt: Date? = nil, externalID: String? = nil
    ) {
        self.appID = appID
        self.deviceID = deviceID
        self.activityID = activityID
        self.state = state
        self.channelID = channelID
        self.reportedAt = reportedAt
        self.externalID = externalID
    }

    static func parse(_ body: JSONObject) throws(APIError) -> DeviceStateReport {
        let problems = ValidationProblems()
        let fields = FieldReader(body, problems: problems)
        let appID = fields.string("app_id", required: true, maxLength: 128)
        let deviceID = fields.string("device_id", required: true, maxLength: 256)
        let activityID = fields.string("activity_id", required: true, maxLength: CommonMessageFields.maximumActivityIDLength)
        let stateName = fields.string("state", required: true, maxLength: 32)
        let state = stateName.flatMap(ActivityDeviceState.init(rawValue:))
        if let stateName, state == nil {
            let known = ActivityDeviceState.allCases.map(\.rawValue).joined(separator: ", ")
            problems.add("state must be one of \(known), got '\(stateName.prefix(32))'")
        }
        let channelID = fields.string("channel_id", maxLength: 256)
        let reportedAt = fields.instant("reported_at")
        let externalID = fields.string("external_id", maxLength: 512)
        try problems.throwIfAny()
        return DeviceStateReport(
            appID: appID!, deviceID: deviceID!, activityID: activityID!, state: state!, channelID: channelID,
            reportedAt: reportedAt, externalID: externalID)
    }
}
