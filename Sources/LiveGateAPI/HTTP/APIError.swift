import Foundation
import HTTPTypes
import Hummingbird
import LiveGateDomain

/// A fatal API error in Braze's shape: `{"message": "...", "errors": [...]}`.
package struct APIError: Error, HTTPResponseError, Sendable, Equatable {
    package var status: HTTPResponse.Status
    /// For a person: what is wrong, and where possible what to do.
    package var message: String
    /// Details, one per problem (for example one per invalid field).
    package var errors: [String]
    package var headers: HTTPFields

    package init(_ status: HTTPResponse.Status, _ message: String, errors: [String] = [], headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.errors = errors
        self.headers = headers
    }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    var body: [UInt8] {
        struct Body: Encodable {
            let message: String
            let errors: [String]?
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(Body(message: message, errors: errors.isEmpty ? nil : errors))) ?? Data())
    }
}

extension APIError {
    package static let missingKey = APIError(.unauthorized, "Missing API key: send it as 'Authorization: Bearer <key>'")
    package static let invalidKey = APIError(.unauthorized, "Invalid API key")
    package static let revokedKey = APIError(.unauthorized, "Invalid API key: this key has been revoked")
    /// Braze's 403: the key or token is valid but may not do this; `reason` says why.
    package static func accessDenied(_ reason: String) -> APIError {
        APIError(.forbidden, "Access Denied", errors: [reason])
    }

    /// Seconds a client should wait before asking again while PostgreSQL is out of reach. A restart takes
    /// a few seconds and the gateway serves again within one of its return, so waiting longer only adds
    /// delay; a refused call costs the gateway one failed connection attempt, so this is no burden.
    package static let databaseRetryAfterSeconds = 2

    /// PostgreSQL cannot be reached: the call was not accepted, and may be made again. (Had the
    /// connection broken in the very moment of a commit, it may have been: a message call repeated with
    /// the same `Idempotency-Key` is never accepted twice.)
    package static let databaseUnavailable = APIError(
        .serviceUnavailable, "Database unavailable: retry after \(databaseRetryAfterSeconds) seconds",
        errors: ["PostgreSQL did not answer"], headers: [.retryAfter: String(databaseRetryAfterSeconds)])
}
