import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The `201` of an accepted message: `{"dispatch_id": ..., "errors": [...], "message": "success"}`,
/// keys sorted like every other body the gateway writes.
struct MessageAcceptance: Encodable {
    let dispatchID: UUID
    let errors: [String]

    enum CodingKeys: String, CodingKey {
        case dispatchID = "dispatch_id"
        case errors, message
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(dispatchID.uuidString.lowercased(), forKey: .dispatchID)
        if !errors.isEmpty { try container.encode(errors, forKey: .errors) }
        try container.encode("success", forKey: .message)
    }

    var stored: StoredResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return StoredResponse(status: 201, body: body)
    }

    /// Turns what the store did into the HTTP answer.
    static func response(for outcome: IdempotentOutcome, request: Request) throws -> Response {
        switch outcome {
        case .committed(let stored):
            return response(stored, replayed: false)
        case .replayed(let stored):
            return response(stored, replayed: true)
        case .keyReused:
            throw IdempotencyHeader.keyReused(request)
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
