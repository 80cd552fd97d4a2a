import APNsClient
import APNsCore
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore

/// A workspace with one app and a key: what most tests need before their first call.
package struct Tenant: Sendable {
    package let workspace: Workspace
    package let app: App
    package let secret: String
}

extension TestDatabase {
    /// A tenant in one call: `permissions` for its key (nil: all of them), the rest for its workspace and app.
    package func makeTenant(
        permissions: Set<APIKeyPermission>? = nil, rateLimitPerHour: Int = Workspace.defaultRateLimitPerHour,
        bundleID: String = "com.example.scores", endpoint: APNsEndpoint = .sandbox, credentials: APNsCredentials? = nil
    ) async throws -> Tenant {
        let workspace = try await makeWorkspace(rateLimitPerHour: rateLimitPerHour)
        let app = try await makeApp(in: workspace, bundleID: bundleID, endpoint: endpoint, credentials: credentials)
        let (_, secret) = try await makeKey(in: workspace, permissions: permissions)
        return Tenant(workspace: workspace, app: app, secret: secret)
    }
}
