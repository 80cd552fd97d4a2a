import HTTPTypes
import Hummingbird
import LiveGateDomain

/// The admin web pages: `GET /dashboard/message-activity-log`, `GET /dashboard/dispatch?id=…`
/// (one dispatch: its status, counts and log entries), `GET /dashboard/activity?app_id=…&activity_id=…`
/// (one activity: its devices, their states and its dispatches), `GET /dashboard/webhooks` (the workspace's
/// webhook endpoints, resuming a paused one) and the CSS, JavaScript and icon they load from
/// `/dashboard/assets/<name>`. They need no key to load; each page asks for one and calls the JSON API
/// with it. Served with a strict Content Security Policy: only this origin's scripts, styles and
/// `fetch`es, no inline code, no framing.
package struct DashboardController: Sendable {
    /// The pages, by route name; each is a file of `Dashboard/Assets` of that name.
    static let pageNames = ["message-activity-log", "dispatch", "activity", "webhooks"]

    let files: DashboardAssets
    /// The pages as served: their lists of log entry types filled in from `ActivityLogType.all`.
    let pages: [String: DashboardAssets.File]

    package init(files: DashboardAssets = .bundled) {
        self.files = files
        self.pages = files.pages.mapValues { page in
            DashboardAssets.File(contentType: page.contentType, body: ActivityLogTypeOptions.filling(page.body))
        }
    }

    package var routes: RouteCollection<LiveGateRequestContext> {
        let routes = RouteCollection(context: LiveGateRequestContext.self)
        for name in Self.pageNames {
            // The dispatch's id (`?id=`) or the activity's (`?app_id=…&activity_id=…`) is the page's query, read
            // by its script: the page itself is the same for every dispatch or activity.
            routes.get("/dashboard/\(name)") { _, _ in try self.page(name) }
        }
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

    func page(_ name: String) throws -> Response {
        guard let page = pages[name] else { throw HTTPError(.notFound) }
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
