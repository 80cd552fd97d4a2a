/// The SDK authentication JWTs the app's provider gave, one per user, kept while the gateway takes them.
@available(iOS 16.0, macOS 13.0, *)
actor SDKAuthenticationTokens {
    let provider: (@Sendable (_ externalID: String) async throws -> String)?
    private var tokens: [String: String] = [:]

    init(provider: (@Sendable (_ externalID: String) async throws -> String)?) {
        self.provider = provider
    }

    /// Nil when the app gave no provider. `fresh`: ask the provider again (the gateway refused the last).
    func token(for externalID: String, fresh: Bool) async throws -> String? {
        guard let provider else { return nil }
        if !fresh, let kept = tokens[externalID] { return kept }
        let token = try await provider(externalID)
        tokens[externalID] = token
        return token
    }
}
