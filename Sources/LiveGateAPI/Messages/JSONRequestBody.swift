import APNsCore
import Hummingbird
import LiveGateDomain
import NIOCore

/// A request body read whole (within the gateway's limit) and parsed as a JSON object.
struct JSONRequestBody {
    let bytes: ByteBuffer
    let object: JSONObject

    static func read(_ request: Request, context: LiveGateRequestContext) async throws -> JSONRequestBody {
        let bytes = try await request.body.collect(upTo: context.maxUploadSize)
        let value: JSONValue
        do {
            value = try bytes.withUnsafeReadableBytes { try JSONValue.parse($0) }
        } catch let error as JSONParseError {
            throw APIError(.badRequest, "Request body is not valid JSON: \(error)")
        }
        guard let object = value.objectValue else {
            throw APIError(.badRequest, "Request body must be a JSON object, got \(value.typeName)")
        }
        return JSONRequestBody(bytes: bytes, object: object)
    }
}
