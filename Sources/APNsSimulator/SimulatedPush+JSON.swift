import APNsCore
import Foundation

extension SimulatedPush {
    /// As `GET /_sim/pushes` lists it: `device_token`, `headers` (by name), `payload` (the JSON as sent,
    /// key order and numbers kept, or a string if it was not JSON) and `received_at` (ISO 8601, UTC).
    ///
    /// The provider token keeps its header and claims but not its signature: the control API has no
    /// authentication, and a simulator given a real app's key would otherwise hand out a JWT that APNs
    /// accepts for up to an hour.
    var controlJSON: JSONValue {
        let headerMembers = headers.sorted { $0.key < $1.key }.map { name, value in
            (key: name, value: JSONValue.string(name == "authorization" ? Self.unsigned(value) : value))
        }
        let payloadValue = (try? JSONValue.parse(payload)) ?? .string(String(decoding: payload, as: UTF8.self))
        return .object([
            "device_token": .string(deviceToken),
            "headers": .object(JSONObject(headerMembers)),
            "payload": payloadValue,
            "received_at": .string(Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(receivedAt)),
        ])
    }

    /// `bearer <header>.<claims>.<signature>` without the signature.
    static func unsigned(_ authorization: String) -> String {
        guard let lastDot = authorization.lastIndex(of: ".") else { return authorization }
        return String(authorization[...lastDot]) + "(signature omitted)"
    }
}
