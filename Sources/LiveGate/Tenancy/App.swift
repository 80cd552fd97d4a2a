import APNsClient
import Foundation

/// An iOS app whose Live Activities a workspace drives (SPEC §2).
public struct App: Sendable, Equatable {
    public let id: UUID
    public let workspaceID: UUID
    /// Braze's "app API identifier": the `app_id` every request carries.
    public let identifier: String
    public let name: String
    public let bundleID: String
    public let endpoint: APNsEndpoint
    /// Nil for an app created without a signing key; its pushes are logged as "No push credential".
    public let credentials: APNsCredentials?
    public let createdAt: Date

    /// Where and as whom the app's pushes go; nil when it has no signing key.
    public var destination: APNsDestination? {
        credentials.map { APNsDestination(endpoint: endpoint, bundleID: bundleID, credentials: $0) }
    }
}
