import HTTPTypes
import Hummingbird
import LiveGateDomain
import NIOConcurrencyHelpers

/// The routes the router serves and their methods, so an unknown method on a served path gets 405,
/// not 404, whether the route is fixed (`/healthz`) or has parameters (`/dashboard/assets/{name}`).
/// Filled once the routes are registered; the middleware that reads it is made before them.
package final class RouteTable: Sendable {
    private struct Route {
        let path: RouterPath
        var methods: Set<HTTPRequest.Method>
    }

    /// By the route's pattern as written in the OpenAPI document (`/dashboard/assets/{name}`).
    private let routes = NIOLockedValueBox<[String: Route]>([:])
    /// The methods of routes without parameters, by path: asked on every request, so one lookup.
    private let fixedRoutes = NIOLockedValueBox<[String: Set<HTTPRequest.Method>]>([:])

    package init() {}

    package func load<Context>(from router: Router<Context>) {
        var routes: [String: Route] = [:]
        for route in router.routes {
            routes[route.path.description, default: Route(path: route.path, methods: [])].methods.insert(route.method)
        }
        self.routes.withLockedValue { $0 = routes }
        let fixed = routes.filter { pattern, _ in !pattern.contains("{") && !pattern.contains("*") }.mapValues(\.methods)
        fixedRoutes.withLockedValue { $0 = fixed }
    }

    /// Whether a route serves `method` at `path`: a request no route serves goes straight to the
    /// router's 404 or 405, before anything looks at its body.
    package func serves(_ method: HTTPRequest.Method, path: String) -> Bool {
        if let methods = fixedRoutes.withLockedValue({ $0[path] }) { return methods.contains(method) }
        return methods(forPath: path).contains(method)
    }

    /// The methods of every route whose pattern `path` falls under; empty when none does. A fixed route
    /// naming the path exactly is the path's only route (`/segments/list`, not `/segments/{segment_id}`).
    /// Asked on the way to a 404 and for paths with parameters, so a walk over every route is cheap enough.
    package func methods(forPath path: String) -> Set<HTTPRequest.Method> {
        if let methods = fixedRoutes.withLockedValue({ $0[path] }) { return methods }
        let components = path.split(separator: "/")
        return routes.withLockedValue { routes in
            routes.values.reduce(into: []) { methods, route in
                if route.path.matches(components) { methods.formUnion(route.methods) }
            }
        }
    }

    /// Every `METHOD /path` served, sorted: what the OpenAPI document must describe.
    package var descriptions: [String] {
        routes.withLockedValue { routes in
            routes.flatMap { pattern, route in route.methods.map { "\($0.rawValue) \(pattern)" } }.sorted()
        }
    }
}
