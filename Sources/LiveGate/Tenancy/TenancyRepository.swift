import APNsClient
import Foundation

/// Storage of workspaces and apps.
public protocol TenancyRepository: Sendable {
    func createWorkspace(name: String, rateLimitPerHour: Int) async throws -> Workspace
    func workspace(id: UUID) async throws -> Workspace?
    func setRateLimit(workspaceID: UUID, rateLimitPerHour: Int) async throws -> Bool

    /// `identifier` nil: a new random identifier is made.
    func createApp(
        workspaceID: UUID, name: String, identifier: String?, bundleID: String, endpoint: APNsEndpoint,
        credentials: APNsCredentials?
    ) async throws -> App
    func app(identifier: String) async throws -> App?
    /// By the app's row id, as dispatches name it (delivery).
    func app(id: UUID) async throws -> App?
}
