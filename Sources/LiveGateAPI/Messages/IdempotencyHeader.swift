import HTTPTypes
import Hummingbird
import LiveGateDomain
import NIOCore

/// Reads `Idempotency-Key` and fingerprints the request it came with.
enum IdempotencyHeader {
    static let name = HTTPField.Name("Idempotency-Key")!
    static let replayed = HTTPField.Name("Idempotent-Replayed")!

    static func claim(_ request: Request, body: ByteBuffer) throws -> IdempotencyClaim? {
        guard let key = request.headers[name] else { return nil }
        guard !key.isEmpty, key.utf8.count <= IdempotencyClaim.maximumKeyBytes else {
            throw APIError(
                .badRequest,
                "Invalid Idempotency-Key: give 1 to \(IdempotencyClaim.maximumKeyBytes) bytes, such as a UUID")
        }
        var fingerprint = Array("\(request.method.rawValue) \(request.uri.path)\n".utf8)
        fingerprint += body.readableBytesView
        return IdempotencyClaim(key: key, requestHash: SHA256Digest.hash(fingerprint))
    }

    static let keyReused = APIError(
        .conflict,
        "This Idempotency-Key was already used with a different request",
        errors: ["send a new Idempotency-Key for a new request; a key is remembered for 24 hours"])
}
