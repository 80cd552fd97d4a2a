import APNsCore
import Foundation
import HTTPTypes
import Hummingbird
import LiveGateDomain
import NIOCore
import UUIDText

/// The `201` of an accepted message: `{"dispatch_id": ..., "errors": [...], "message": "success",
/// "warnings": [...]}`, keys sorted like every other body the gateway writes.
/// `errors` carries only what Braze itself reports as errors on a successful call (`start`'s users
/// without a push-to-start token): Braze clients read any non-empty `errors` as a failed call.
/// Notices that are not errors (no device under the tag yet, an ignored field) go in `warnings`.
struct MessageAcceptance {
    let dispatchID: UUID
    var errors: [String] = []
    var warnings: [String] = []

    /// Written with APNsCore's serializer: this is on every accepted call, and JSONEncoder is slow.
    var stored: StoredResponse {
        var body = JSONObject()
        body.set("dispatch_id", .string(dispatchID.lowercasedText))
        if !errors.isEmpty { body.set("errors", .array(errors.map(JSONValue.string))) }
        body.set("message", .string("success"))
        if !warnings.isEmpty { body.set("warnings", .array(warnings.map(JSONValue.string))) }
        return StoredResponse(status: 201, body: String(decoding: JSONValue.object(body).serialized(), as: UTF8.self))
    }

    /// Turns what the store did into the HTTP answer.
    static func response(for outcome: IdempotentOutcome) throws -> Response {
        switch outcome {
        case .committed(let stored):
            return response(stored, replayed: false)
        case .replayed(let stored):
            return response(stored, replayed: true)
        case .keyReused:
            throw IdempotencyHeader.keyReused
        }
    }

    static func response(_ stored: StoredResponse, replayed: Bool) -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if replayed { headers[IdempotencyHeader.replayed] = "true" }
        return Response(
            status: .init(code: stored.status), headers: headers,
            body: .init(byteBuffer: ByteBuffer(string: stored.body)))
    }
}
