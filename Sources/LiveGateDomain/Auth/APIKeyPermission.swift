/// What a REST API key may do. An open set: unknown names are rejected where keys are made.
package struct APIKeyPermission: Hashable, Sendable, Codable, CustomStringConvertible {
    package let rawValue: String

    package init?(rawValue: String) {
        guard Self.all.contains(where: { $0.rawValue == rawValue }) else { return nil }
        self.rawValue = rawValue
    }

    private init(known rawValue: String) { self.rawValue = rawValue }

    package static let liveActivityUpdate = APIKeyPermission(known: "messages.live_activity.update")
    package static let liveActivityStart = APIKeyPermission(known: "messages.live_activity.start")
    package static let messageActivityLogRead = APIKeyPermission(known: "message_activity_log.read")
    package static let channelsManage = APIKeyPermission(known: "live_activity.channels.manage")
    /// Reading activities as resources: their devices, states and dispatches.
    package static let liveActivityRead = APIKeyPermission(known: "live_activity.read")
    /// Setting users' custom attributes (`POST /users/track`).
    package static let usersTrack = APIKeyPermission(known: "users.track")
    /// Creating, reading and deleting segments (`/segments`).
    package static let segmentsManage = APIKeyPermission(known: "segments.manage")
    /// Registering, reading and removing apps' ActivityAttributes types (`/live_activity/types`).
    package static let activityTypes = APIKeyPermission(known: "live_activity.types")

    /// Reading and setting apps' hourly priority budgets (`/live_activity/priority_budget`).
    package static let priorityBudget = APIKeyPermission(known: "live_activity.priority_budget")

    /// Creating, reading, deleting and resuming webhook endpoints (`/webhooks`).
    package static let webhooksManage = APIKeyPermission(known: "webhooks.manage")
    /// Reading a workspace's events (`GET /events`).
    package static let eventsRead = APIKeyPermission(known: "events.read")

    package static let all: [APIKeyPermission] = [
        .liveActivityUpdate, .liveActivityStart, .messageActivityLogRead, .channelsManage, .liveActivityRead, .usersTrack,
        .segmentsManage, .activityTypes, .priorityBudget, .webhooksManage, .eventsRead,
    ]

    package var description: String { rawValue }

    package init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let permission = APIKeyPermission(rawValue: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown permission \(text)"))
        }
        self = permission
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
