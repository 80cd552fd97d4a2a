import APNsCore
import Foundation

extension SimulatedPush {
    /// As `GET /_sim/pushes` lists it: `device_token`, `headers` (by name, the provider token without
    /// its signature), `payload` (the JSON as sent), `received_at` (ISO 8601, UTC; see `ControlJSON`),
    /// `connection` and `stream`, and `fault` when it met one.
    var controlJSON: JSONValue {
        var object: JSONObject = [
            "device_token": .string(deviceToken),
            "headers": ControlJSON.headers(headers),
            "payload": ControlJSON.payload(payload),
            "received_at": ControlJSON.time(receivedAt),
            "connection": .integer(connection),
            "stream": .integer(stream),
        ]
        if let fault { object.set("fault", fault.controlJSON(times: nil)) }
        return .object(object)
    }
}
