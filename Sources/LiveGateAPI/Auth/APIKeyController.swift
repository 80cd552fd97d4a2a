import Foundation
import Hummingbird
import LiveGateDomain
import UUIDText

/// `GET /api_keys/current`: describes the calling key (never the secret), so an operator can check
/// which workspace, permissions and allowlist a deployed key has.
package struct APIKeyController: Sendable {
    let authenticator: APIKeyAuthenticator

    package init(authenticator: APIKeyAuthenticator) {
        self.authenticator = authenticator
    }

    package var routes: RouteCollection<LiveGateRequestContext> {
        let routes = RouteCollection(context: LiveGateRequestContext.self)
        routes.add(middleware: APIKeyMiddleware(authenticator: authenticator, permission: nil))
        routes.get("/api_keys/current", use: current)
        return routes
    }

    struct KeyDescription: ResponseEncodable {
        // Ids in the lower-case form PostgreSQL and the CLI print.
        let id: String
        let name: String
        let workspaceID: String
        let permissions: [String]
        let allowedIPs: [String]
        let createdAt: Date

        enum CodingKeys: String, CodingKey {
            case id, name, permissions
            case workspaceID = "workspace_id"
            case allowedIPs = "allowed_ips"
            case createdAt = "created_at"
        }
    }

    @Sendable func current(_ request: Request, context: LiveGateRequestContext) async throws -> KeyDescription {
        guard let key = context.apiKey else { throw APIError.missingKey }
        return KeyDescription(
            id: key.id.lowercasedText, name: key.name, workspaceID: key.workspaceID.lowercasedText,
            permissions: key.permissions.map(\.rawValue).sorted(),
            allowedIPs: key.allowedNetworks.map(\.description), createdAt: key.createdAt)
    }
}
