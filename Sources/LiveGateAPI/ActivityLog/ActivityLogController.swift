import APNsCore
import Foundation
import HTTPTypes
import Hummingbird
import LiveGateDomain
import NIOCore

/// `GET /message_activity_log`: the calling key's workspace's log, newest first, filtered and
/// paged. Another workspace's app is answered exactly like an unknown one.
package struct ActivityLogController: Sendable {
    let authenticator: APIKeyAuthenticator
    let apps: AppDirectory
    let log: any ActivityLogRepository

    package init(authenticator: APIKeyAuthenticator, apps: AppDirectory, log: any ActivityLogRepository) {
        self.authenticator = authenticator
        self.apps = apps
        self.log = log
    }

    package var routes: RouteCollection<LiveGateRequestContext> {
        let routes = RouteCollection(context: LiveGateRequestContext.self)
        routes.group("/message_activity_log")
            .add(middleware: APIKeyMiddleware(authenticator: authenticator, permission: .messageActivityLogRead))
            .get(use: list)
        return routes
    }

    @Sendable func list(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        guard let key = context.apiKey else { throw APIError.missingKey }
        let query = try ActivityLogQuery.parse(request.uri.query)
        var appID: UUID?
        if let identifier = query.appIdentifier {
            appID = try await apps.app(queried: identifier, ofKeyIn: context).id
        }
        let page = try await log.page(workspaceID: key.workspaceID, appID: appID, query: query)
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: ActivityLogJSON.body(of: page))))
    }
}
