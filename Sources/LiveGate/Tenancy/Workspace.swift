import Foundation

/// A tenant: owns apps, users, API keys, and hourly rate limits: one for the message endpoints, one for
/// `/users/track`.
public struct Workspace: Sendable, Equatable {
    public static let defaultRateLimitPerHour = 250_000
    /// Braze's `/users/track` allows 3,000 calls every 3 seconds.
    public static let defaultUsersTrackRateLimitPerHour = 3_600_000

    public let id: UUID
    public let name: String
    /// Requests per clock hour, shared by the start and update endpoints.
    public let rateLimitPerHour: Int
    /// Calls of `/users/track` per clock hour.
    public let usersTrackRateLimitPerHour: Int
    public let createdAt: Date
}
