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
}
