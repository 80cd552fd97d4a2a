import Foundation

/// A tenant: owns apps, users, API keys and one hourly rate limit.
public struct Workspace: Sendable, Equatable {
    public static let defaultRateLimitPerHour = 250_000

    public let id: UUID
    public let name: String
    /// Requests per clock hour, shared by the start and update endpoints.
    public let rateLimitPerHour: Int
    public let createdAt: Date
}
