import HTTPTypes
import Hummingbird

/// The admin web pages (SPEC §8): `GET /dashboard/message-activity-log` and the CSS, JavaScript and
/// icon it loads from `/dashboard/assets/<name>`. They need no key to load; the page asks for one and
/// calls the JSON API with it. Served with a strict Content Security Policy: only this origin's scripts,
/// styles and `fetch`es, no inline code, no framing.
public struct DashboardController: Sendable {
    let files: DashboardAssets
    /// The log page as served: its type filter filled in from `ActivityLogType.all`.
    let logPage: DashboardAssets.File?

    public init(files: DashboardAssets = .bundled) {
        self.files = files
        self.logPage = files.pages["message-activity-log"].map { page in
            DashboardAssets.File(contentType: page.contentType, body: ActivityLogTypeOptions.filling(page.body))
        }
    }

    public var routes: RouteCollection<LiveGateRequestContext> {
        let routes = RouteCollection(context: LiveGateRequestContext.self)
        routes.get("/dashboard/message-activity-log", use: activityLogPage)
        routes.get("/dashboard/assets/:name", use: asset)
        return routes
    }

    static let securityHeaders: HTTPFields = [
        HTTPField.Name("Content-Security-Policy")!:
            "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
            + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        HTTPField.Name("Referrer-Policy")!: "no-referrer",
    ]

    @Sendable func activityLogPage(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        guard let page = logPage else { throw HTTPError(.notFound) }
        return Self.response(page, cacheControl: "no-store")
    }

    @Sendable func asset(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        // Only the files read at start are served: the name is a key, never a path.
        guard let name = context.parameters.get("name"), let asset = files.assets[name] else { throw HTTPError(.notFound) }
        return Self.response(asset, cacheControl: "no-cache")
    }

    static func response(_ file: DashboardAssets.File, cacheControl: String) -> Response {
        var headers = securityHeaders
        headers[.contentType] = file.contentType
        headers[.cacheControl] = cacheControl
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: file.body))
    }
}
