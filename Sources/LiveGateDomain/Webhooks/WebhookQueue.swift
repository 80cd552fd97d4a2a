import Foundation

/// What a webhook sender asks of the store: endpoints with events waiting, leased to it, and what
/// came of each batch. Every write is conditional on the lease still being the sender's, so a sender
/// that lost its lease changes nothing.
package protocol WebhookQueue: Sendable {
    /// Leases up to `limit` endpoints that are due, not paused, not leased to another live sender, and
    /// have an event of theirs waiting; `excluding`: the ones this sender already works on.
    func lease(worker: String, for lease: Duration, limit: Int, excluding: Set<UUID>) async throws -> [LeasedWebhook]
    /// Renews the lease before a batch; false when it is no longer this worker's.
    func renew(_ id: UUID, worker: String, for lease: Duration) async throws -> Bool
    /// A 2xx: the cursor moves to `position`, `count` events more were delivered, failures are cleared.
    /// False when the lease was no longer this worker's (nothing changed).
    func delivered(_ id: UUID, worker: String, through position: EventPosition, count: Int) async throws -> Bool
    /// Anything else: one failure more, retried after `retryAfter`, or paused when it has been failing
    /// for `retryPeriod`. Nil when the lease was no longer this worker's.
    func failed(
        _ id: UUID, worker: String, error: String, retryAfter: Duration, retryPeriod: Duration
    ) async throws
        -> WebhookFailure?
    /// Gives the lease up, so another sender may take the endpoint at once.
    func release(_ id: UUID, worker: String) async throws
}

/// An endpoint leased to a sender: what sending to it needs.
package struct LeasedWebhook: Sendable, Equatable {
    package let id: UUID
    package let workspaceID: UUID
    package let appID: UUID?
    package let url: String
    package let eventTypes: Set<EventType>
    package let secret: String
    package let cursor: EventPosition
    /// Failed batches in a row so far.
    package let failures: Int

    package init(
        id: UUID, workspaceID: UUID, appID: UUID?, url: String, eventTypes: Set<EventType>, secret: String, cursor: EventPosition,
        failures: Int
    ) {
        self.id = id
        self.workspaceID = workspaceID
        self.appID = appID
        self.url = url
        self.eventTypes = eventTypes
        self.secret = secret
        self.cursor = cursor
        self.failures = failures
    }
}

/// A failed batch, as recorded: failures in a row, and whether this one paused the endpoint.
package struct WebhookFailure: Sendable, Equatable {
    package let failures: Int
    package let failingSince: Date
    package let paused: Bool

    package init(failures: Int, failingSince: Date, paused: Bool) {
        self.failures = failures
        self.failingSince = failingSince
        self.paused = paused
    }
}
