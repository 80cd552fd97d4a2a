import APNsClient
import APNsCore
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore

/// Tenancy rows for tests, made through the same repositories the gateway uses.
extension TestDatabase {
    package func makeWorkspace(
        name: String = "Test workspace", rateLimitPerHour: Int = Workspace.defaultRateLimitPerHour
    ) async throws -> Workspace {
        try await tenancy.createWorkspace(name: name, rateLimitPerHour: rateLimitPerHour)
    }

    package func makeApp(
        in workspace: Workspace, bundleID: String = "com.example.scores", endpoint: APNsEndpoint = .sandbox,
        credentials: APNsCredentials? = nil
    ) async throws -> App {
        try await tenancy.createApp(
            workspaceID: workspace.id, name: "Scores", identifier: nil, bundleID: bundleID, endpoint: endpoint,
            credentials: credentials)
    }

    /// A key and the secret to present; `permissions` nil means all of them.
    package func makeKey(
        in workspace: Workspace, permissions: Set<APIKeyPermission>? = nil, allowing networks: [String] = [],
        name: String = "test key"
    ) async throws -> (key: APIKey, secret: String) {
        let secret = APIKeySecret.generate()
        let key = try await apiKeys.create(
            workspaceID: workspace.id, name: name, secret: secret, permissions: permissions ?? Set(APIKeyPermission.all),
            allowedNetworks: networks.map { IPNetwork($0)! })
        return (key, secret.value)
    }
}
