import APNsCore
import Foundation
import LiveGateDomain

/// A validated `POST /messages/live_activity/update` body.
struct LiveActivityUpdateRequest {
    var common: CommonMessageFields
    var endActivity: Bool
    var externalID: String?
    /// Accepted, but worth telling the caller about.
    var warnings: [String] = []

    /// `now` is the time the message is accepted: `send_at` is checked against it.
    static func parse(_ body: JSONObject, now: Date) throws(APIError) -> LiveActivityUpdateRequest {
        let problems = ValidationProblems()
        let fields = FieldReader(body, problems: problems)
        let common = CommonMessageFields.read(fields, notificationRequired: false, now: now)
        let endActivity = fields.bool("end_activity") ?? false
        let externalID = fields.string("external_id", maxLength: 512)
        try problems.throwIfAny()

        var request = LiveActivityUpdateRequest(common: common!, endActivity: endActivity, externalID: externalID)
        if request.common.dismissalDate != nil, !endActivity {
            // APNs reads dismissal-date only on an end event; sending it on an update would do nothing.
            request.common.dismissalDate = nil
            request.warnings.append("dismissal_date was ignored: it applies only with end_activity: true")
        }
        return request
    }

    var event: LiveActivityEvent { endActivity ? .end : .update }

    func payload(timestamp: Int64) -> LiveActivityPayload {
        LiveActivityPayload(
            event: event, timestamp: timestamp, contentState: common.contentState, staleDate: common.staleDate,
            dismissalDate: common.dismissalDate, relevanceScore: common.relevanceScore, alert: common.notification.alert)
    }
}
