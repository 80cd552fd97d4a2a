import APNsCore
import Foundation

/// A validated `POST /messages/live_activity/start` body.
struct LiveActivityStartRequest {
    static let maximumUsers = 50

    var common: CommonMessageFields
    var attributesType: String
    var attributes: JSONObject
    /// De-duplicated, in the order given.
    var users: [UserReference]

    /// `now` is the time the message is accepted: `send_at` is checked against it.
    static func parse(_ body: JSONObject, now: Date) throws(APIError) -> LiveActivityStartRequest {
        let problems = ValidationProblems()
        let fields = FieldReader(body, problems: problems)
        for unsupported in ["segment_id", "custom_audience", "audience", "broadcast"] where fields.has(unsupported) {
            problems.add(
                "\(unsupported) targeting is not supported yet: name the users with external_user_ids or user_aliases")
        }
        let common = CommonMessageFields.read(fields, notificationRequired: true, now: now)
        let attributesType = fields.string("activity_attributes_type", required: true, maxLength: 256)
        let attributes = fields.object("activity_attributes", required: true)
        if let alert = common?.notification.alert, problems.isEmpty {
            // A start shows an alert: iOS needs both lines.
            if alert.title == nil { problems.add("notification.alert.title is required to start an activity") }
            if alert.body == nil { problems.add("notification.alert.body is required to start an activity") }
        } else if common != nil, problems.isEmpty {
            problems.add("notification.alert with a title and a body is required to start an activity")
        }
        let users = readUsers(fields)
        try problems.throwIfAny()

        return LiveActivityStartRequest(
            common: common!, attributesType: attributesType!, attributes: attributes!, users: users)
    }

    /// `external_user_ids`, `user_aliases` and the `external_id` shorthand together, named twice counted once.
    private static func readUsers(_ fields: FieldReader) -> [UserReference] {
        var users: [UserReference] = []
        if let single = fields.string("external_id") { users.append(.externalID(single)) }
        if let ids = fields.strings("external_user_ids") { users += ids.map(UserReference.externalID) }
        if let value = fields.value("user_aliases") {
            if let aliases = value.arrayValue {
                for (index, element) in aliases.enumerated() {
                    let aliasFields = element.objectValue.map {
                        FieldReader($0, path: "user_aliases[\(index)].", problems: fields.problems)
                    }
                    guard let aliasFields else {
                        fields.problems.add("user_aliases[\(index)] must be an object with alias_name and alias_label")
                        continue
                    }
                    if let alias = aliasFields.userAlias() { users.append(.alias(alias)) }
                }
            } else {
                fields.problems.add("user_aliases must be an array, got \(value.typeName)")
            }
        }
        var seen = Set<UserReference>()
        users = users.filter { seen.insert($0).inserted }
        if users.isEmpty, fields.problems.isEmpty {
            fields.problems.add("name the users to start the activity for: external_user_ids, user_aliases or external_id")
        } else if users.count > maximumUsers {
            fields.problems.add("at most \(maximumUsers) users per start, got \(users.count)")
        }
        return users
    }

    /// The attributes with `brazeActivityId`, which the SDK reads to tag the new activity's update token.
    /// With a `channel`, the activity starts on it rather than asking for an update token.
    func payload(timestamp: Int64, channel: ChannelID?) -> LiveActivityPayload {
        var attributes = attributes
        attributes.set("brazeActivityId", .string(common.activityID))
        return LiveActivityPayload(
            event: .start, timestamp: timestamp, contentState: common.contentState, staleDate: common.staleDate,
            dismissalDate: common.dismissalDate, relevanceScore: common.relevanceScore, alert: common.notification.alert,
            attributesType: attributesType, attributes: attributes, inputPushToken: true,
            inputPushChannel: channel)
    }
}
