import APNsCore
import Foundation
import LiveGateDomain

/// The fields `update` and `start` share.
struct CommonMessageFields {
    static let maximumActivityIDLength = 256

    var appID: String
    var activityID: String
    var contentState: JSONObject
    var staleDate: Int64?
    var dismissalDate: Int64?
    var relevanceScore: JSONValue?
    var notification: ApplePushOptions
    var priority: APNsPriority
    /// `send_at`: nil sends at once.
    var sendAt: Date?

    /// Nil when a required field is missing or wrong; every problem is recorded in `fields.problems`.
    static func read(_ fields: FieldReader, notificationRequired: Bool, now: Date) -> CommonMessageFields? {
        let appID = fields.string("app_id", required: true, maxLength: 128)
        let activityID = fields.string("activity_id", required: true, maxLength: maximumActivityIDLength)
        let contentState = fields.object("content_state", required: true)
        let staleDate = fields.date("stale_date")
        let dismissalDate = fields.date("dismissal_date")
        let relevanceScore = fields.number("relevance_score")
        let notification = fields.nested("notification", required: notificationRequired).map(ApplePushOptions.read)
        let priority = MessagePriority.resolve(fields, notification: notification ?? ApplePushOptions())
        let sendAt = SendAt.read(fields, now: now)
        guard let appID, let activityID, let contentState, notification != nil || !notificationRequired else { return nil }
        return CommonMessageFields(
            appID: appID, activityID: activityID, contentState: contentState, staleDate: staleDate,
            dismissalDate: dismissalDate, relevanceScore: relevanceScore, notification: notification ?? ApplePushOptions(),
            priority: priority, sendAt: sendAt)
    }
}
