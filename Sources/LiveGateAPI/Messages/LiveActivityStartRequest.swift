import APNsCore
import Foundation
import LiveGateDomain

/// A validated `POST /messages/live_activity/start` body.
struct LiveActivityStartRequest {
    static let maximumUsers = 50

    var common: CommonMessageFields
    var attributesType: String
    var attributes: JSONObject
    /// De-duplicated, in the order given; empty for a start to an audience.
    var users: [UserReference]
    /// `custom_audience`, read, and as it was given (kept on the dispatch).
    var customAudience: (audience: Audience, json: JSONValue)?
    /// `segment_id`: that segment's audience, evaluated when the start is delivered.
    var segmentID: UUID?

    var targetsAudience: Bool { customAudience != nil || segmentID != nil }

    /// `now` is the time the message is accepted: `send_at` is checked against it.
    static func parse(_ body: JSONObject, now: Date) throws(APIError) -> LiveActivityStartRequest {
        let problems = ValidationProblems()
        let fields = FieldReader(body, problems: problems)
        if fields.has("audience") {
            problems.add("audience is not a field of a start: Braze's start takes its connected audience object as custom_audience")
        }
        if fields.has("broadcast") {
            problems.add(
                "broadcast is not supported: name the users, or an audience with custom_audience or segment_id")
        }
        let customAudience = fields.value("custom_audience").flatMap { given in
            AudienceReader.read(given, at: "custom_audience", problems: problems).map { (audience: $0, json: given) }
        }
        var segmentID: UUID?
        if let text = fields.string("segment_id", maxLength: 64) {
            segmentID = UUID(uuidString: text)
            if segmentID == nil { problems.add("segment_id must be a segment's id (a UUID), got '\(text)'") }
        }
        let toAudience = fields.has("custom_audience") || fields.has("segment_id")
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
        let users = readUsers(fields, toAudience: toAudience)
        try problems.throwIfAny()

        return LiveActivityStartRequest(
            common: common!, attributesType: attributesType!, attributes: attributes!, users: users,
            customAudience: customAudience, segmentID: segmentID)
    }

    /// `external_user_ids`, `user_aliases` and the `external_id` shorthand together, named twice counted once.
    /// A start goes to named users or to an audience, not both.
    private static func readUsers(_ fields: FieldReader, toAudience: Bool) -> [UserReference] {
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
        if toAudience {
            if !users.isEmpty {
                fields.problems.add(
                    "a start goes to named users (external_user_ids, user_aliases, external_id) or to an audience (custom_audience, segment_id), not both"
                )
            }
        } else if users.isEmpty, fields.problems.isEmpty {
            fields.problems.add(
                "name who to start the activity for: external_user_ids, user_aliases or external_id, or an audience with custom_audience or segment_id"
            )
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
