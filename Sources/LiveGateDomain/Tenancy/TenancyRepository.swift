import APNsCore
import Foundation

/// Storage of workspaces and apps.
package protocol TenancyRepository: Sendable {
    func createWorkspace(name: String, rateLimitPerHour: Int) async throws -> Workspace
    func workspace(id: UUID) async throws -> Workspace?
    func setRateLimit(workspaceID: UUID, rateLimitPerHour: Int) async throws -> Bool
    /// `/users/track`'s own hourly limit.
    func setUsersTrackRateLimit(workspaceID: UUID, perHour limit: Int) async throws -> Bool

    /// `identifier` nil: a new random identifier is made. `channelsEndpointURL` nil: channels are managed
    /// on the endpoint's own management host.
    func createApp(
        workspaceID: UUID, name: String, identifier: String?, bundleID: String, endpoint: APNsEndpoint,
        channelsEndpointURL: String?, credentials: APNsCredentials?
    ) async throws -> App
    func app(identifier: String) async throws -> App?
    /// By the app's row id, as dispatches name it (delivery).
    func app(id: UUID) async throws -> App?
    /// Where the app's channels are managed (nil: the default); nil if there is no such app.
    func setChannelsEndpoint(appIdentifier: String, url: String?) async throws -> App?
    /// Sets the app's hourly priority budget, or turns it off (nil); nil if there is no such app.
    func setPriorityBudget(appIdentifier: String, budget: PriorityBudget?) async throws -> App?
    /// Turns SDK authentication on or off; `keys` replace the app's keys (nil keeps them). Enforcing
    /// with no key at all is refused. Nil if there is no such app.
    func setSDKAuthentication(appIdentifier: String, keys: [SDKAuthPublicKey]?, enforced: Bool) async throws -> App?
    /// Every app's identifier, or nil when there are more than `limit`: what tells an unknown `app_id`
    /// from one not yet cached without a query per unknown id (`AppDirectory`).
    func appIdentifiers(limit: Int) async throws -> Set<String>?
}

extension TenancyRepository {
    package func createApp(
        workspaceID: UUID, name: String, identifier: String?, bundleID: String, endpoint: APNsEndpoint,
        credentials: APNsCredentials?
    ) async throws -> App {
        try await createApp(
            workspaceID: workspaceID, name: name, identifier: identifier, bundleID: bundleID, endpoint: endpoint,
            channelsEndpointURL: nil, credentials: credentials)
    }
}
