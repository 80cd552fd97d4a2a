import APNsCore
import Foundation

/// An iOS app whose Live Activities a workspace drives.
package struct App: Sendable, Equatable {
    package let id: UUID
    package let workspaceID: UUID
    /// Braze's "app API identifier": the `app_id` every request carries.
    package let identifier: String
    package let name: String
    package let bundleID: String
    package let endpoint: APNsEndpoint
    /// Where the app's broadcast channels are managed when not the endpoint's own management host
    /// (`--apns-channels-endpoint`); nil for the default.
    package let channelsEndpointURL: String?
    /// Nil for an app created without a signing key; its pushes are logged as "No push credential".
    package let credentials: APNsCredentials?
    /// Whether `/push_token_tag` calls naming a user must carry a JWT the customer's server signed.
    package let sdkAuthentication: SDKAuthentication
    package let createdAt: Date
    /// How many priority-10 updates an activity may get an hour before the rest go at priority 5; nil:
    /// no budget, every update at the priority it asks for.
    package let priorityBudget: PriorityBudget?

    package init(
        id: UUID, workspaceID: UUID, identifier: String, name: String, bundleID: String, endpoint: APNsEndpoint,
        channelsEndpointURL: String?, credentials: APNsCredentials?, sdkAuthentication: SDKAuthentication, createdAt: Date,
        priorityBudget: PriorityBudget? = nil
    ) {
        self.id = id
        self.workspaceID = workspaceID
        self.identifier = identifier
        self.name = name
        self.bundleID = bundleID
        self.endpoint = endpoint
        self.channelsEndpointURL = channelsEndpointURL
        self.credentials = credentials
        self.sdkAuthentication = sdkAuthentication
        self.createdAt = createdAt
        self.priorityBudget = priorityBudget
    }

    /// Where and as whom the app's pushes go; nil when it has no signing key.
    package var destination: APNsDestination? {
        credentials.map { APNsDestination(endpoint: endpoint, bundleID: bundleID, credentials: $0) }
    }

    /// The endpoint with the app's own channels endpoint, if it has one, as its management host.
    package var channelsEndpoint: APNsEndpoint {
        // The URL was validated when stored; an unusable one falls back to the default host.
        channelsEndpointURL.flatMap { endpoint.managed(at: $0) } ?? endpoint
    }

    /// Where and as whom the app's channels are managed; nil when it has no signing key.
    package var channelDestination: APNsDestination? {
        credentials.map { APNsDestination(endpoint: channelsEndpoint, bundleID: bundleID, credentials: $0) }
    }
}
