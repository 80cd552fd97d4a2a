import APNsCore
import Foundation

/// An event to write beside what it describes: its type, whose it is, and its own fields (`activity_id`,
/// `dispatch_id`, `external_id` where they apply, then the type's). The id and time are given when it
/// is written.
package struct OutgoingEvent: Sendable {
    package let type: EventType
    package let workspaceID: UUID
    package let appID: UUID?
    package var fields: JSONObject

    package init(_ type: EventType, workspaceID: UUID, appID: UUID?, fields: JSONObject = JSONObject()) {
        self.type = type
        self.workspaceID = workspaceID
        self.appID = appID
        self.fields = fields
    }

    /// Sets `name` to `value`, or to `null` when there is none, so each type's events have the same keys.
    package mutating func set(_ name: String, _ value: String?) {
        fields.set(name, value.map(JSONValue.string) ?? .null)
    }

    package mutating func set(_ name: String, _ value: Int?) {
        fields.set(name, value.map { .number(String($0)) } ?? .null)
    }
}
