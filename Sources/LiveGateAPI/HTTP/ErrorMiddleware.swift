import HTTPTypes
import Hummingbird
import LiveGateDomain
import Logging

/// Gives every error Braze's JSON body, whatever raised it: our own `APIError`s, Hummingbird's
/// 404 and 413, unknown methods (405 with `Allow`), undecodable bodies, PostgreSQL out of reach (503 with
/// `Retry-After`), and unexpected failures (500, logged with the request id, the cause never sent
/// to the client).
package struct ErrorMiddleware: RouterMiddleware {
    package typealias Context = LiveGateRequestContext
    let routes: RouteTable

    package init(routes: RouteTable) {
        self.routes = routes
    }

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return try Self.apiError(for: error, request: request, context: context, routes: routes)
                .response(from: request, context: context)
        }
    }

    /// The Braze-shaped error for anything a handler threw; unexpected failures are logged here.
    /// `routes` lets a 404 on a served path, asked with a method it does not serve, become a 405.
    static func apiError(for error: any Error, request: Request, context: Context, routes: RouteTable?) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as any HTTPResponseError:
            return translate(error, request: request, context: context, routes: routes)
        case _ where isDatabaseUnavailable(error):
            context.logger.warning("database unavailable", metadata: ["reason": "\(error)"])
            return .databaseUnavailable
        default:
            context.logger.error("request failed", metadata: ["error": "\(String(reflecting: type(of: error)))", "reason": "\(error)"])
            return APIError(.internalServerError, "Internal server error")
        }
    }

    private static func translate(
        _ error: any HTTPResponseError, request: Request, context: Context, routes: RouteTable?
    ) -> APIError {
        switch error.status {
        case .notFound:
            // A served path asked with another method: 405. Its own method finding nothing (an
            // unknown file under a served folder) stays the 404 the handler meant.
            let allowed = routes?.methods(forPath: request.uri.path) ?? []
            if !allowed.isEmpty, !allowed.contains(request.method) {
                var headers = HTTPFields()
                headers[.allow] = allowed.map(\.rawValue).sorted().joined(separator: ", ")
                return APIError(.methodNotAllowed, "Method \(request.method.rawValue) is not allowed here", headers: headers)
            }
            return APIError(.notFound, "Not found: no endpoint at \(request.uri.path)")
        case .contentTooLarge:
            return APIError(.contentTooLarge, "Request body is larger than \(context.requestBodyLimit) bytes")
        default:
            let reason = (error as? HTTPError)?.body ?? error.status.reasonPhrase
            return APIError(error.status, reason, headers: (error as? HTTPError)?.headers ?? [:])
        }
    }
}
