import Foundation

/// The events written, as readers (`GET /events`, webhook senders) page through them: a workspace's,
/// after a position, in order, only those whose transactions are over and no later one can precede.
package protocol EventLog: Sendable {
    /// At most `limit` events of the workspace after `position`, oldest first; only `appID`'s (with those
    /// of no app) when given, only `types` when given.
    func events(
        workspaceID: UUID, appID: UUID?, types: Set<EventType>?, after position: EventPosition, limit: Int
    ) async throws -> [StoredEvent]
}
