import Foundation
import HTTPTypes
import Hummingbird
import LiveGateDomain

/// Applies the gateway's request rules before any handler runs: the body limit (413, checked against
/// `Content-Length` at once and against the bytes read otherwise), JSON bodies only (415), and the
/// client address when the peer is a trusted proxy. A method or path no route serves is the router's
/// 405 or 404 whatever its body: the body rules are only for requests a route will read.
package struct RequestLimitsMiddleware: RouterMiddleware {
    package typealias Context = LiveGateRequestContext
    let maxBodyBytes: Int
    let clientAddresses: ClientAddressResolver
    let routes: RouteTable?

    package init(maxBodyBytes: Int, clientAddresses: ClientAddressResolver, routes: RouteTable? = nil) {
        self.maxBodyBytes = maxBodyBytes
        self.clientAddresses = clientAddresses
        self.routes = routes
    }

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.requestBodyLimit = maxBodyBytes
        context.clientAddress = clientAddresses.clientAddress(peer: context.peerAddress, headers: request.headers)
        if let routes, !routes.serves(request.method, path: request.uri.path) {
            return try await next(request, context)
        }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBodyBytes {
            throw APIError(.contentTooLarge, "Request body is larger than \(maxBodyBytes) bytes")
        }
        if Self.carriesBody(request), !Self.isJSON(request.headers[.contentType]) {
            throw APIError(
                .unsupportedMediaType, "Unsupported content type: send the body as JSON",
                errors: ["Content-Type must be application/json"])
        }
        return try await next(request, context)
    }

    /// A POST, PUT or PATCH with a body: one whose `Content-Length` is not 0, or that is chunked. A POST
    /// without one (`/webhooks/{id}/resume`) needs no content type.
    static func carriesBody(_ request: Request) -> Bool {
        switch request.method {
        case .post, .put, .patch:
            if let length = request.headers[.contentLength] { return length != "0" }
            return request.headers[.transferEncoding] != nil
        default: return false
        }
    }

    /// `application/json`, any case, parameters such as `charset` allowed.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.utf8.prefix { $0 != UInt8(ascii: ";") }.trimmingOptionalWhitespace()
        return mediaType.equalsIgnoringASCIICase("application/json".utf8)
    }
}
