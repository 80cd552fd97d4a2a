import APNsCore
import Foundation

/// A named audience of a workspace (`POST /segments`), evaluated again each time a start to it is
/// delivered, so it follows users' attributes as they change.
package struct Segment: Sendable, Equatable {
    package var id: UUID
    package var name: String
    /// The connected audience object as it was given.
    package var audience: JSONValue
    package var createdAt: Date
    package var updatedAt: Date

    package init(id: UUID, name: String, audience: JSONValue, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.name = name
        self.audience = audience
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
