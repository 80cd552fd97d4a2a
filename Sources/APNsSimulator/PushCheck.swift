import APNsCore
import Foundation

/// The checks APNs makes on a Live Activity push, in the order it makes them, with its answers.
enum PushCheck {
    enum Verdict: Equatable {
        case accepted(deviceToken: String)
        case rejected(status: Int, reason: String)
    }

    static func check(
        method: String, path: String, headers: [String: String], body: [UInt8], now: Date,
        providerToken: (String?) -> String?
    ) -> Verdict {
        guard method == "POST" else { return .rejected(status: 405, reason: "MethodNotAllowed") }
        let prefix = "/3/device/"
        guard path.hasPrefix(prefix) else { return .rejected(status: 404, reason: "BadPath") }
        let token = String(path.dropFirst(prefix.count))
        guard PushToken(hex: token) != nil else { return .rejected(status: 400, reason: "BadDeviceToken") }
        if let problem = providerToken(headers["authorization"]) {
            return .rejected(status: 403, reason: problem)
        }
        guard headers["apns-push-type"] == "liveactivity" else { return .rejected(status: 400, reason: "InvalidPushType") }
        guard let topic = headers["apns-topic"], !topic.isEmpty else { return .rejected(status: 400, reason: "MissingTopic") }
        guard topic.hasSuffix(".push-type.liveactivity") else { return .rejected(status: 400, reason: "BadTopic") }
        if let priority = headers["apns-priority"], priority != "5", priority != "10" {
            return .rejected(status: 400, reason: "BadPriority")
        }
        if let expiration = headers["apns-expiration"], Int64(expiration) == nil {
            return .rejected(status: 400, reason: "BadExpirationDate")
        }
        if let id = headers["apns-id"], UUID(uuidString: id) == nil { return .rejected(status: 400, reason: "BadMessageId") }
        if let problem = checkPayload(body) { return .rejected(status: problem.status, reason: problem.reason) }
        return .accepted(deviceToken: token)
    }

    /// Nil when the body is a Live Activity payload APNs takes (device pushes and broadcasts alike).
    static func checkPayload(_ body: [UInt8]) -> (status: Int, reason: String)? {
        guard !body.isEmpty else { return (400, "PayloadEmpty") }
        guard body.count <= LiveActivityPayload.maximumSize else { return (413, "PayloadTooLarge") }
        // Not one of Apple's documented reasons: APNs accepts such payloads and the device drops them;
        // the simulator says so at once, because a test wants to know.
        guard let aps = (try? JSONValue.parse(body))?["aps"], aps["timestamp"]?.numberLexeme != nil,
            let event = aps["event"]?.stringValue, ["update", "end", "start"].contains(event),
            aps["content-state"]?.objectValue != nil
        else { return (400, "BadLiveActivityPayload") }
        return nil
    }

    /// Nil when the JWT is valid: ES256, a known `kid`, the key's team as `iss`, signed by that key,
    /// issued within the last hour.
    static func checkProviderToken(
        _ authorization: String?, keys: [String: SimulatorConfiguration.ProviderKey], now: Date
    ) -> String? {
        switch signedAt(authorization, keys: keys) {
        case .failure(let problem): problem.reason
        case .success(let issuedAt): checkAge(issuedAt: issuedAt, now: now)
        }
    }

    struct TokenProblem: Error {
        let reason: String
    }

    /// When a well-formed JWT signed by a known key was issued (`iat`), or why it is not one.
    static func signedAt(
        _ authorization: String?, keys: [String: SimulatorConfiguration.ProviderKey]
    ) -> Result<Int64, TokenProblem> {
        guard let authorization, authorization.lowercased().hasPrefix("bearer ") else {
            return .failure(.init(reason: "MissingProviderToken"))
        }
        let jwt = authorization.dropFirst("bearer ".count)
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]), let claimBytes = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2]),
            let header = try? JSONValue.parse(headerBytes), let claims = try? JSONValue.parse(claimBytes),
            header["alg"]?.stringValue == "ES256", let keyID = header["kid"]?.stringValue, let key = keys[keyID],
            claims["iss"]?.stringValue == key.teamID, let issuedAt = claims["iat"]?.numberLexeme.flatMap({ Int64($0) }),
            key.publicKey.verify(signature: signature, of: Array("\(parts[0]).\(parts[1])".utf8))
        else { return .failure(.init(reason: "InvalidProviderToken")) }
        return .success(issuedAt)
    }

    /// APNs takes a token for an hour after it was issued, and not one issued in the future.
    static func checkAge(issuedAt: Int64, now: Date) -> String? {
        let age = now.timeIntervalSince1970 - Double(issuedAt)
        if age > 3600 { return "ExpiredProviderToken" }
        if age < -60 { return "InvalidProviderToken" }
        return nil
    }
}
