import APNsCore
import Foundation

/// A named audience of a workspace (`POST /segments`), evaluated again each time a start to it is
/// delivered, so it follows users' attributes as they change.
public struct Segment: Sendable, Equatable {
    public var id: UUID
    public var name: String
    /// The connected audience object as it was given.
    public var audience: JSONValue
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: UUID, name: String, audience: JSONValue, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.name = name
        self.audience = audience
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
