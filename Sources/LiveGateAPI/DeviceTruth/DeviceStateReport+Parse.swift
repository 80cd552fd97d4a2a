import APNsCore
import LiveGateDomain

/// An SDK call: its body read, every problem named at once.
extension DeviceStateReport: SDKCall {
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
        let frequentPushesEnabled = fields.bool("frequent_pushes_enabled")
        try problems.throwIfAny()
        return DeviceStateReport(
            appID: appID!, deviceID: deviceID!, activityID: activityID!, state: state!, channelID: channelID,
            reportedAt: reportedAt, externalID: externalID, frequentPushesEnabled: frequentPushesEnabled)
    }
}
