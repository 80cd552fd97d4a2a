import APNsCore
import Foundation

/// A broadcast the simulator accepted (answered 200), as it arrived.
package struct SimulatedBroadcast: Sendable {
    package let bundleID: String
    package let channelID: ChannelID
    /// Lower-case names.
    package let headers: [String: String]
    package let payload: [UInt8]
    package let receivedAt: Date

    /// As `GET /_sim/broadcasts` lists it: `bundle_id`, `channel_id`, then as `/_sim/pushes` lists a push.
    var controlJSON: JSONValue {
        .object([
            "bundle_id": .string(bundleID),
            "channel_id": .string(channelID.rawValue),
            "headers": ControlJSON.headers(headers),
            "payload": ControlJSON.payload(payload),
            "received_at": ControlJSON.time(receivedAt),
        ])
    }
}
