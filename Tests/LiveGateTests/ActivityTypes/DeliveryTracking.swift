import APNsCore
import Foundation
import Testing

/// An app's ActivityAttributes type as the app's Swift declares it, and the schema LiveGateKit derives
/// for it: what the payload-truth tests decode pushes into, as ActivityKit would.
struct DeliveryTracking: Codable, Equatable {
    struct ContentState: Codable, Equatable {
        enum Status: String, Codable { case preparing, onTheWay = "on_the_way", delivered }

        var status: Status
        var eta: Date
        var driver: String?
        var stops: Int
    }

    var orderNumber: String

    static let name = "DeliveryTracking"

    static let contentStateSchema = #"""
        {"type":"object","properties":{
            "status":{"type":"string","enum":["preparing","on_the_way","delivered"]},
            "eta":{"type":"number","format":"apple-date"},
            "driver":{"type":"string"},
            "stops":{"type":"integer"}},
         "required":["status","eta","stops"]}
        """#

    static let attributesSchema = #"{"type":"object","properties":{"orderNumber":{"type":"string"}},"required":["orderNumber"]}"#

    /// The PUT body registering the type for `appID`.
    static func registration(appID: String, mode: String = "enforce") -> String {
        #"{"app_id":"\#(appID)","content_state":\#(contentStateSchema),"attributes":\#(attributesSchema),"mode":"\#(mode)"}"#
    }

    /// Decodes a push's `content-state` as ActivityKit does: Foundation's `JSONDecoder()`, defaults.
    static func decodeContentState(ofPayload payload: [UInt8]) throws -> ContentState {
        let state = try #require(try JSONValue.parse(String(decoding: payload, as: UTF8.self))["aps"]?["content-state"])
        return try JSONDecoder().decode(ContentState.self, from: Data(state.serialized()))
    }
}
