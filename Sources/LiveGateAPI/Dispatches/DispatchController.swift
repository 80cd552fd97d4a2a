import APNsCore
import Foundation
import Hummingbird
import LiveGateDomain
import Logging
import UUIDText

/// `GET` and `DELETE /messages/live_activity/dispatches/{dispatch_id}`: an accepted message as a
/// resource. Reading takes a key that may send updates or starts, or read the activity log; cancelling
/// takes one that may send (update or start). Another workspace's dispatch, or an id that is not a
/// UUID, is a 404 like a missing one.
package struct DispatchController: Sendable {
    static let readers: [APIKeyPermission] = [.liveActivityUpdate, .liveActivityStart, .messageActivityLogRead]
    static let cancellers: [APIKeyPermission] = [.liveActivityUpdate, .liveActivityStart]

    let authenticator: APIKeyAuthenticator
    let records: any DispatchRecords
    /// This gateway's delivery engine: a cancelled dispatch being delivered here stops at once.
    let commits: (any DispatchCommitListener)?

    package init(authenticator: APIKeyAuthenticator, records: any DispatchRecords, commits: (any DispatchCommitListener)?) {
        self.authenticator = authenticator
        self.records = records
        self.commits = commits
    }

    package var routes: RouteCollection<LiveGateRequestContext> {
        let routes = RouteCollection(context: LiveGateRequestContext.self)
        let path: RouterPath = "/messages/live_activity/dispatches/:dispatch_id"
        routes.group(path).add(middleware: APIKeyMiddleware(authenticator: authenticator, anyOf: Self.readers))
            .get(use: show)
        routes.group(path).add(middleware: APIKeyMiddleware(authenticator: authenticator, anyOf: Self.cancellers))
            .delete(use: cancel)
        return routes
    }

    @Sendable func show(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        let (id, workspaceID) = try Self.target(context)
        guard let record = try await records.record(id, workspaceID: workspaceID) else { throw Self.notFound(id) }
        return Self.response(record)
    }

    @Sendable func cancel(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        let (id, workspaceID) = try Self.target(context)
        switch try await records.cancel(id, workspaceID: workspaceID) {
        case .notFound:
            throw Self.notFound(id)
        case .alreadyFinished(let record):
            throw APIError(
                .conflict, "Dispatch already \(record.state.rawValue)",
                errors: [
                    "dispatch \(id.lowercasedText) is \(record.state.rawValue): only a scheduled, pending or delivering dispatch can be cancelled"
                ])
        case .cancelled(let record):
            commits?.stopped([id], because: .cancelled)
            context.logger.info("dispatch cancelled", metadata: ["dispatch_id": "\(id.lowercasedText)"])
            return Self.response(record)
        }
    }

    private static func target(_ context: LiveGateRequestContext) throws -> (UUID, UUID) {
        guard let key = context.apiKey else { throw APIError.missingKey }
        let text = context.parameters.get("dispatch_id") ?? ""
        guard let id = UUID(uuidString: text) else { throw notFound(text) }
        return (id, key.workspaceID)
    }

    private static func notFound(_ id: UUID) -> APIError { notFound(id.lowercasedText) }

    private static func notFound(_ id: String) -> APIError {
        APIError(.notFound, "Dispatch not found", errors: ["no dispatch '\(id.prefix(64))' in this API key's workspace"])
    }

    static func response(_ record: DispatchRecord) -> Response {
        var body = DispatchJSON.object(record)
        body.set("message", .string("success"))
        return BroadcastChannelController.json(.ok, body)
    }
}
