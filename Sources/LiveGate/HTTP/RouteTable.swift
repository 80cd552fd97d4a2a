import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers

/// The paths the router serves and their methods, so an unknown method on a known path gets 405,
/// not 404. Filled once the routes are registered; the middleware that reads it is made before them.
public final class RouteTable: Sendable {
    private let table = NIOLockedValueBox<[String: Set<HTTPRequest.Method>]>([:])

    public init() {}

    public func load<Context>(from router: Router<Context>) {
        var table: [String: Set<HTTPRequest.Method>] = [:]
        for route in router.routes {
            table[route.path.description, default: []].insert(route.method)
        }
        self.table.withLockedValue { $0 = table }
    }

    public func methods(forPath path: String) -> Set<HTTPRequest.Method> {
        table.withLockedValue { $0[path] ?? [] }
    }

    /// Every `METHOD /path` served, sorted: what the OpenAPI document must describe.
    public var descriptions: [String] {
        table.withLockedValue { table in
            table.flatMap { path, methods in methods.map { "\($0.rawValue) \(path)" } }.sorted()
        }
    }
}
