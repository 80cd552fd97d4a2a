import HTTPTypes
import LiveGateDomain

extension AppDirectory {
    /// The app `identifier` names in the workspace of the request's API key. An unknown app and
    /// another workspace's are the same 400, so a key learns nothing about other tenants.
    func app(identifier: String, ofKeyIn context: LiveGateRequestContext) async throws -> App {
        guard let key = context.apiKey else { throw APIError.missingKey }
        guard let app = try await app(identifier: identifier, inWorkspace: key.workspaceID) else {
            throw APIError.unknownApp(identifier)
        }
        return app
    }

    /// The app a read route's `app_id` query parameter names in the workspace of the request's API key;
    /// unknown or another workspace's, the same 400, worded as the query's other problems are.
    func app(queried identifier: String, ofKeyIn context: LiveGateRequestContext) async throws -> App {
        guard let key = context.apiKey else { throw APIError.missingKey }
        guard let app = try await app(identifier: identifier, inWorkspace: key.workspaceID) else {
            throw APIError(
                .badRequest, "Invalid request: unknown app_id",
                errors: ["app_id '\(identifier.prefix(128))' is not an app of this workspace"])
        }
        return app
    }
}
