import APNsCore
import Foundation

/// How the control API shows what a request carried, the same for pushes and broadcasts.
enum ControlJSON {
    /// By name, sorted. The provider token keeps its header and claims but not its signature: the
    /// control API has no authentication, and a simulator given a real app's key would otherwise hand
    /// out a JWT that APNs accepts for up to an hour.
    static func headers(_ headers: [String: String]) -> JSONValue {
        let members = headers.sorted { $0.key < $1.key }.map { name, value in
            (key: name, value: JSONValue.string(name == "authorization" ? unsigned(value) : value))
        }
        return .object(JSONObject(members))
    }

    /// The JSON as sent, key order and numbers kept, or a string if it was not JSON.
    static func payload(_ payload: [UInt8]) -> JSONValue {
        (try? JSONValue.parse(payload)) ?? .string(String(decoding: payload, as: UTF8.self))
    }

    /// ISO 8601, UTC, with fractions of a second.
    static func time(_ date: Date) -> JSONValue {
        .string(Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date))
    }

    /// `bearer <header>.<claims>.<signature>` without the signature.
    static func unsigned(_ authorization: String) -> String {
        guard let lastDot = authorization.lastIndex(of: ".") else { return authorization }
        return String(authorization[...lastDot]) + "(signature omitted)"
    }
}
