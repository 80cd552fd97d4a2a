import APNsCore

extension ProviderTokenCache {
    /// Sends requests signed with the credentials' provider token, and once more, with a renewed token,
    /// those whose answers reject it (`rejectsToken`). `send` gets the token and the indices (of
    /// `0..<count`) to send, and returns their answers in that order. Throws when the key cannot sign;
    /// when renewing cannot help (see `renew`), the rejections are what is returned.
    func sendRenewingOnce<Answer>(
        count: Int, credentials: APNsCredentials, rejectsToken: (Answer) -> Bool,
        send: (ProviderToken, [Int]) async -> [Answer]
    ) async throws(APNsKeyError) -> [Answer] {
        let token = try self.token(for: credentials)
        var answers = await send(token, Array(0..<count))
        // Once: a token renewed less than 20 minutes ago and rejected again means the key is wrong.
        let rejected = answers.indices.filter { rejectsToken(answers[$0]) }
        guard !rejected.isEmpty, let fresh = try? renew(token, for: credentials) else { return answers }
        let retried = await send(fresh, rejected)
        for (index, answer) in zip(rejected, retried) { answers[index] = answer }
        return answers
    }
}
