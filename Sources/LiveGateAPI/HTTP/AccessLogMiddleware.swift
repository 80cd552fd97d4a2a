import Hummingbird
import LiveGateDomain
import Logging

/// One info line per request with its outcome, and the request id echoed as `X-Request-Id` so a caller
/// can quote it; every log line of the request carries the same id (`hb.request.id`).
package struct AccessLogMiddleware: RouterMiddleware {
    package typealias Context = LiveGateRequestContext

    package init() {}

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        var response = try await next(request, context)
        response.headers[.xRequestID] = context.id
        let elapsed = ContinuousClock.now - started
        context.logger.info(
            "request",
            metadata: [
                "method": "\(request.method.rawValue)",
                "path": "\(request.uri.path)",
                "status": "\(response.status.code)",
                "duration_ms": "\(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)",
            ])
        return response
    }
}
