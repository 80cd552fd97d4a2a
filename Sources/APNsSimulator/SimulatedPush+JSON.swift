import APNsCore
import Foundation

extension SimulatedPush {
    /// As `GET /_sim/pushes` lists it: `device_token`, `headers` (by name, the provider token without
    /// its signature), `payload` (the JSON as sent) and `received_at` (ISO 8601, UTC); see `ControlJSON`.
    var controlJSON: JSONValue {
        .object([
            "device_token": .string(deviceToken),
            "headers": ControlJSON.headers(headers),
            "payload": ControlJSON.payload(payload),
            "received_at": ControlJSON.time(receivedAt),
        ])
    }
}
