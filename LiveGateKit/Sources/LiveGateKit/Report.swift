import Foundation

/// One call the SDK owes the gateway, kept in the outbox until the gateway took it (or refused it for
/// good). Made at the time of the event: the user is the one the device belonged to then.
@available(iOS 16.0, macOS 13.0, *)
struct Report: Codable, Sendable, Equatable {
    enum Kind: String, Codable, Sendable {
        /// An activity's update token under its tag (`/push_token_tag` with `tag`).
        case updateToken
        /// A push-to-start token for an ActivityAttributes type (`/push_token_tag` with the type).
        case pushToStartToken
        /// An activity's state on the device (`/live_activity/device_state`).
        case state
    }

    var id: UUID
    var kind: Kind
    /// The tag (update token, state) or the ActivityAttributes type (push-to-start token).
    var subject: String
    /// The token as hex; nil removes the registration. Unused for a state.
    var token: String?
    var state: LiveActivityState?
    var channelID: String?
    var reportedAt: Date?
    var externalID: String?
    /// The activity's ActivityAttributes type (an update token), sent as `activity_attributes_type` so
    /// the gateway knows which registered schema its updates must match. Nil in reports written before
    /// the SDK sent it, and when the type is not known.
    var attributesType: String?
    /// A state report: whether the person allows frequent updates (ActivityKit's
    /// `frequentPushesEnabled`), when known. Nil in reports written before the SDK sent it.
    var frequentPushesEnabled: Bool?

    /// Reports with the same key replace each other while they wait: only the newest is worth sending.
    /// One device per install, so the tag or type is the key.
    var coalescingKey: String { "\(kind.rawValue):\(subject)" }

    var route: String { kind == .state ? "/live_activity/device_state" : "/push_token_tag" }

    /// The JSON body, as the gateway's openapi.yaml describes it.
    func body(appID: String, deviceID: String) throws -> Data {
        var fields: [String: Any] = ["app_id": appID, "device_id": deviceID]
        switch kind {
        case .updateToken:
            fields["tag"] = subject
            fields["push_token"] = token ?? NSNull()
            if let attributesType { fields["activity_attributes_type"] = attributesType }
        case .pushToStartToken:
            fields["activity_attributes_type"] = subject
            fields["push_to_start_token"] = token ?? NSNull()
        case .state:
            fields["activity_id"] = subject
            fields["state"] = (state ?? .active).rawValue
            if let channelID { fields["channel_id"] = channelID }
            if let reportedAt { fields["reported_at"] = Self.time(reportedAt) }
            if let frequentPushesEnabled { fields["frequent_pushes_enabled"] = frequentPushesEnabled }
        }
        if let externalID {
            fields["external_id"] = externalID
        } else if kind != .state, token != nil {
            // The device has no user (none signed in, or logged out): its token belongs to nobody, not to
            // whoever it was registered under before.
            fields["external_id"] = NSNull()
        }
        return try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
    }

    /// `2026-11-26T12:00:00.250Z`: milliseconds, as the gateway orders reports by them.
    static func time(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
