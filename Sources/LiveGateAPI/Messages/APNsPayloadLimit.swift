import APNsCore
import HTTPTypes
import LiveGateDomain

/// APNs refuses payloads over 4096 bytes; the API refuses them first, so nothing is accepted that
/// could never be sent.
enum APNsPayloadLimit {
    static func check(_ payload: [UInt8]) throws(APIError) {
        guard payload.count <= LiveActivityPayload.maximumSize else {
            throw APIError(
                .badRequest,
                "The APNs payload would be \(payload.count) bytes; APNs takes at most \(LiveActivityPayload.maximumSize)",
                errors: ["shorten content_state, the attributes or the alert by \(payload.count - LiveActivityPayload.maximumSize) bytes"])
        }
    }
}
