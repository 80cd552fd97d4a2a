import Foundation

/// A workspace's webhook endpoint as the API shows it: where events go, which ones, and how sending
/// to it goes (never its secret, which is shown once, when it is made).
package struct WebhookEndpoint: Sendable, Equatable {
    package let id: UUID
    package let workspaceID: UUID
    /// The app's identifier, as message calls name it; nil: every app of the workspace.
    package let appIdentifier: String?
    package let url: String
    package let eventTypes: [EventType]
    package let createdAt: Date
    package let pausedAt: Date?
    package let failures: Int
    package let failingSince: Date?
    package let lastError: String?
    /// When the failed batch is tried again: nil while it is not failing, or paused.
    package let retryAt: Date?
    package let lastDeliveredAt: Date?
    package let deliveredEvents: Int64
    /// How far behind it is: from the oldest event it has not been sent to now; zero when none waits.
    package let lag: Duration

    package init(
        id: UUID, workspaceID: UUID, appIdentifier: String?, url: String, eventTypes: [EventType], createdAt: Date,
        pausedAt: Date?, failures: Int, failingSince: Date?, lastError: String?, retryAt: Date?, lastDeliveredAt: Date?,
        deliveredEvents: Int64, lag: Duration
    ) {
        self.id = id
        self.workspaceID = workspaceID
        self.appIdentifier = appIdentifier
        self.url = url
        self.eventTypes = eventTypes
        self.createdAt = createdAt
        self.pausedAt = pausedAt
        self.failures = failures
        self.failingSince = failingSince
        self.lastError = lastError
        self.retryAt = retryAt
        self.lastDeliveredAt = lastDeliveredAt
        self.deliveredEvents = deliveredEvents
        self.lag = lag
    }
}
