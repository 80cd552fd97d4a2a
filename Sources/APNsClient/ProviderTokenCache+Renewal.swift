import APNsCore
import Foundation

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

    /// One request on `client` with the `authorization` header added, renewing a rejected token once
    /// as above: what broadcasts and channel management send.
    func sendSigned(
        _ request: HTTP2Request, on client: CurlHTTP2Client, credentials: APNsCredentials
    ) async throws(APNsKeyError) -> Result<HTTP2Response, HTTP2TransportError> {
        try await sendRenewingOnce(count: 1, credentials: credentials, rejectsToken: Self.rejectsToken) { token, _ in
            var signed = request
            signed.headers.insert(("authorization", "bearer " + token.value), at: 0)
            return [await client.send(batch: [signed])[0]]
        }[0]
    }

    static func rejectsToken(_ outcome: Result<HTTP2Response, HTTP2TransportError>) -> Bool {
        // The body is read only for a 403: other answers cannot be about the token.
        guard case .success(let answer) = outcome, answer.status == 403 else { return false }
        return APNsResponse(answer).rejectsProviderToken
    }
}

extension APNsResponse {
    /// What an HTTP/2 answer says as APNs words it: status, `apns-id`, `apns-request-id`, `retry-after`,
    /// error body.
    init(_ answer: consuming HTTP2Response) {
        // One pass over the few headers kept, rather than three hashed lookups per answer.
        var apnsID: String?
        var requestID: String?
        var retryAfter: String?
        for (name, value) in answer.headers {
            switch name {
            case "apns-id": apnsID = value
            case "apns-request-id": requestID = value
            case "retry-after": retryAfter = value
            default: continue
            }
        }
        self.init(
            status: answer.status, body: answer.body, apnsID: apnsID, requestID: requestID, retryAfter: retryAfter,
            // The clock is read only for the rare answer that asks to wait.
            now: retryAfter == nil ? 0 : Date().timeIntervalSince1970)
    }
}
