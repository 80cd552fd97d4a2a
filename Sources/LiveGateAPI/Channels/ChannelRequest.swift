import APNsCore
import LiveGateDomain

/// A validated `POST /live_activity/channels` or `/live_activity/channels/delete` body: the app, the
/// activity, and (create only) the storage policy, 1 when not given.
struct ChannelRequest {
    var appID: String
    var activityID: String
    var policy: MessageStoragePolicy

    static func parse(_ body: JSONObject, takesPolicy: Bool) throws(APIError) -> ChannelRequest {
        let problems = ValidationProblems()
        let fields = FieldReader(body, problems: problems)
        let appID = fields.string("app_id", required: true, maxLength: 128)
        let activityID = fields.string("activity_id", required: true, maxLength: CommonMessageFields.maximumActivityIDLength)
        var policy = MessageStoragePolicy.mostRecentMessageStored
        if takesPolicy, let value = fields.value("message_storage_policy") {
            switch value.numberLexeme {
            case "0": policy = .noMessageStored
            case "1": policy = .mostRecentMessageStored
            default: problems.add("message_storage_policy must be 0 (no message stored) or 1 (the most recent message stored)")
            }
        } else if !takesPolicy, fields.has("message_storage_policy") {
            problems.add("message_storage_policy is not a field of this endpoint")
        }
        try problems.throwIfAny()
        return ChannelRequest(appID: appID!, activityID: activityID!, policy: policy)
    }
}
