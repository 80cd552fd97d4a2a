import APNsCore
import Foundation
import HTTPTypes
import Hummingbird
import LiveGateDomain
import NIOCore

/// `GET /events`: the workspace's events as NDJSON, one JSON object a line, oldest first, for batch
/// consumers (permission `events.read`). `after` is the `LiveGate-Next-Cursor` of the page before
/// (left out: from the oldest event kept); `limit` at most 1,000 (default 100); `app_id` and `type`
/// (repeatable or comma-separated) narrow it. A page shorter than `limit` is the end for now: ask
/// again with its cursor later. Only events whose transactions are over are given, in the order no later
/// commit can precede, so paging never skips one.
package struct EventsController: Sendable {
    static let defaultLimit = 100
    static let maximumLimit = 1_000

    let authenticator: APIKeyAuthenticator
    let apps: AppDirectory
    let events: any EventLog

    package init(authenticator: APIKeyAuthenticator, apps: AppDirectory, events: any EventLog) {
        self.authenticator = authenticator
        self.apps = apps
        self.events = events
    }

    package var routes: RouteCollection<LiveGateRequestContext> {
        let routes = RouteCollection(context: LiveGateRequestContext.self)
        routes.group("/events")
            .add(middleware: APIKeyMiddleware(authenticator: authenticator, permission: .eventsRead))
            .get(use: page)
        return routes
    }

    @Sendable func page(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        guard let key = context.apiKey else { throw APIError.missingKey }
        var query = QueryParameters(request.uri.query, allowed: ["after", "limit", "app_id", "type"])
        var position = EventPosition.start
        if let after = query.text("after") {
            if let parsed = EventPosition(cursor: after) {
                position = parsed
            } else {
                query.problem("after must be a cursor this endpoint gave out (its LiveGate-Next-Cursor header)")
            }
        }
        let limit = query.limit(default: Self.defaultLimit, maximum: Self.maximumLimit)
        let appIdentifier = query.text("app_id")
        var types: Set<EventType>?
        if let text = query.text("type", maxLength: 1_000) {
            let named = text.split(separator: ",").map { EventType(rawValue: String($0)) }
            let unknown = named.filter { !EventType.all.contains($0) }
            if unknown.isEmpty {
                types = Set(named)
            } else {
                query.problem(
                    "type must be one of: " + EventType.all.map(\.rawValue).joined(separator: ", ") + "; got "
                        + unknown.map(\.rawValue).joined(separator: ", "))
            }
        }
        try query.throwIfAny()
        let app = try await appIdentifier.asyncMap { try await apps.app(queried: $0, ofKeyIn: context) }
        let page = try await events.events(workspaceID: key.workspaceID, appID: app?.id, types: types, after: position, limit: limit)
        var body: [UInt8] = []
        for event in page {
            body += event.json()
            body.append(UInt8(ascii: "\n"))
        }
        var headers: HTTPFields = [.contentType: "application/x-ndjson"]
        headers[Self.nextCursor] = (page.last?.position ?? position).cursor
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    static let nextCursor = HTTPField.Name("LiveGate-Next-Cursor")!
}

extension Optional {
    fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
