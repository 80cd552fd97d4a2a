import Foundation
import Hummingbird
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore

/// Routes only the tests add, behind the gateway's real middleware, to exercise it on its own:
/// one route per permission, a JSON echo, and a handler that fails unexpectedly.
enum ProbeRoutes {
    static let crashDetail = "internal-detail-for-operators-only"

    struct Echo: Codable, ResponseEncodable {
        let name: String
        let count: Int
    }

    struct Allowed: ResponseEncodable {
        let permission: String
    }

    struct UnexpectedFailure: Error, CustomStringConvertible {
        var description: String { "table scan failed: \(ProbeRoutes.crashDetail)" }
    }

    static func add(to router: Router<LiveGateRequestContext>, authenticator: APIKeyAuthenticator) {
        for permission in APIKeyPermission.all {
            router.group("/probe/permission")
                .add(middleware: APIKeyMiddleware(authenticator: authenticator, permission: permission))
                .get(RouterPath(permission.rawValue)) { _, _ in Allowed(permission: permission.rawValue) }
        }
        router.post("/probe/echo") { request, context in
            try await request.decode(as: Echo.self, context: context)
        }
        router.get("/probe/crash") { _, _ -> Echo in
            throw UnexpectedFailure()
        }
    }

    static func path(for permission: APIKeyPermission) -> String {
        "/probe/permission/\(permission.rawValue)"
    }
}
