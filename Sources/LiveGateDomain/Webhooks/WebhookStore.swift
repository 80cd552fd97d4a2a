import Foundation

/// A workspace's webhook endpoints, as the API manages them (`/webhooks`). Every call is scoped to the
/// workspace: another workspace's endpoint is not found.
package protocol WebhookStore: Sendable {
    /// Makes an endpoint that is sent the events written from now on. `appID`: the app's internal id.
    func create(
        workspaceID: UUID, appID: UUID?, url: String, eventTypes: [EventType], secret: String
    ) async throws
        -> WebhookEndpoint
    func list(workspaceID: UUID) async throws -> [WebhookEndpoint]
    func endpoint(id: UUID, workspaceID: UUID) async throws -> WebhookEndpoint?
    /// False when the workspace has no such endpoint.
    func delete(id: UUID, workspaceID: UUID) async throws -> Bool
    /// Clears a pause and the failures, due at once; nil when the workspace has no such endpoint. A
    /// paused endpoint's resumption is logged (`key`: who asked for it), in the same transaction.
    func resume(id: UUID, workspaceID: UUID, by key: APIKey?) async throws -> WebhookEndpoint?
}

extension WebhookStore {
    /// Resumed by no key: tools and tests.
    package func resume(id: UUID, workspaceID: UUID) async throws -> WebhookEndpoint? {
        try await resume(id: id, workspaceID: workspaceID, by: nil)
    }
}
