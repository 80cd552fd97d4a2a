import APNsCore
import CivilTime
import Foundation

/// An event as it was written, for a reader: its id, its place in the order readers follow, and its
/// JSON: `id`, `type`, `time`, `workspace_id`, `app_id` (the app's identifier, as message calls name
/// it), then the type's own fields.
package struct StoredEvent: Sendable, Equatable {
    package let id: Int64
    package let position: EventPosition
    package let type: EventType
    package let occurredAt: Date
    package let workspaceID: UUID
    package let appIdentifier: String?
    /// The event's own fields, as one JSON object's text.
    package let data: String

    package init(
        id: Int64, position: EventPosition, type: EventType, occurredAt: Date, workspaceID: UUID, appIdentifier: String?, data: String
    ) {
        self.id = id
        self.position = position
        self.type = type
        self.occurredAt = occurredAt
        self.workspaceID = workspaceID
        self.appIdentifier = appIdentifier
        self.data = data
    }

    /// One line of JSON, without its newline.
    package func json() -> [UInt8] {
        var object = JSONObject()
        object.set("id", .string(String(id)))
        object.set("type", .string(type.rawValue))
        object.set(
            "time",
            .string(UTCTimestamp.iso8601(Int64((occurredAt.timeIntervalSince1970 * 1_000_000).rounded()), unitsPerSecond: 1_000_000)))
        object.set("workspace_id", .string(workspaceID.uuidString.lowercased()))
        object.set("app_id", appIdentifier.map(JSONValue.string) ?? .null)
        var bytes = object.serialized()
        // The stored fields follow the common ones in the same object: `{...}` + `,` + their members.
        let fields = Array(data.utf8)
        if fields.count > 2 {
            bytes.removeLast()
            bytes.append(UInt8(ascii: ","))
            bytes.append(contentsOf: fields.dropFirst())
        }
        return bytes
    }
}

/// Where an event stands in the order readers follow: its transaction's id, then its own. A reader
/// resumes after a position; events of transactions still running when it read are left for the next
/// read, so one that commits late is never passed over.
package struct EventPosition: Sendable, Hashable, Comparable {
    package let transaction: UInt64
    package let id: Int64

    package init(transaction: UInt64, id: Int64) {
        self.transaction = transaction
        self.id = id
    }

    package static let start = EventPosition(transaction: 0, id: 0)

    package static func < (lhs: EventPosition, rhs: EventPosition) -> Bool {
        (lhs.transaction, lhs.id) < (rhs.transaction, rhs.id)
    }

    /// As a cursor: `<transaction>-<id>`.
    package var cursor: String { "\(transaction)-\(id)" }

    package init?(cursor: String) {
        let parts = cursor.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let transaction = UInt64(parts[0]), let id = Int64(parts[1]), id >= 0 else { return nil }
        self.init(transaction: transaction, id: id)
    }
}
