import Foundation

/// A tenant: owns apps, users, API keys, and hourly rate limits: one for the message endpoints, one for
/// `/users/track`.
package struct Workspace: Sendable, Equatable {
    package static let defaultRateLimitPerHour = 250_000
    /// Braze's `/users/track` allows 3,000 calls every 3 seconds.
    package static let defaultUsersTrackRateLimitPerHour = 3_600_000

    package let id: UUID
    package let name: String
    /// Requests per clock hour, shared by the start and update endpoints.
    package let rateLimitPerHour: Int
    /// Calls of `/users/track` per clock hour.
    package let usersTrackRateLimitPerHour: Int
    package let createdAt: Date

    package init(id: UUID, name: String, rateLimitPerHour: Int, usersTrackRateLimitPerHour: Int, createdAt: Date) {
        self.id = id
        self.name = name
        self.rateLimitPerHour = rateLimitPerHour
        self.usersTrackRateLimitPerHour = usersTrackRateLimitPerHour
        self.createdAt = createdAt
    }
}
