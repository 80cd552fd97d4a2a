import APNsCore

/// A validated `POST /messages/live_activity/update` body (SPEC §4).
struct LiveActivityUpdateRequest {
    static let maximumActivityIDBytes = 256

    var appID: String
    var activityID: String
    var contentState: JSONObject
    var endActivity: Bool
    var dismissalDate: Int64?
    var staleDate: Int64?
    var relevanceScore: JSONValue?
    var externalID: String?
    var notification: ApplePushOptions
    var priority: APNsPriority
    /// Accepted, but worth telling the caller about.
    var warnings: [String] = []

    static func parse(_ body: JSONObject) throws(APIError) -> LiveActivityUpdateRequest {
        let problems = ValidationProblems()
        let fields = FieldReader(body, problems: problems)
        let appID = fields.string("app_id", required: true, maxBytes: 128)
        let activityID = fields.string("activity_id", required: true, maxBytes: maximumActivityIDBytes)
        let contentState = fields.object("content_state", required: true)
        let endActivity = fields.bool("end_activity") ?? false
        let dismissalDate = fields.date("dismissal_date")
        let staleDate = fields.date("stale_date")
        let relevanceScore = fields.number("relevance_score")
        let externalID = fields.string("external_id", maxBytes: 512)
        let notification = fields.nested("notification").map(ApplePushOptions.read) ?? ApplePushOptions()
        let priority = MessagePriority.resolve(fields, notification: notification)
        try problems.throwIfAny()

        var request = LiveActivityUpdateRequest(
            appID: appID!, activityID: activityID!, contentState: contentState!, endActivity: endActivity,
            dismissalDate: nil, staleDate: staleDate, relevanceScore: relevanceScore, externalID: externalID,
            notification: notification, priority: priority)
        if let dismissalDate {
            // APNs reads dismissal-date only on an end event; sending it on an update would do nothing.
            if endActivity {
                request.dismissalDate = dismissalDate
            } else {
                request.warnings.append("dismissal_date was ignored: it applies only with end_activity: true")
            }
        }
        return request
    }

    func payload(timestamp: Int64) -> LiveActivityPayload {
        LiveActivityPayload(
            event: endActivity ? .end : .update, timestamp: timestamp, contentState: contentState,
            staleDate: staleDate, dismissalDate: dismissalDate, relevanceScore: relevanceScore,
            alert: notification.alert)
    }
}
