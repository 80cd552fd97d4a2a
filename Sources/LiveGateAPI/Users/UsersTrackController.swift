import APNsCore
import Foundation
import Hummingbird
import LiveGateDomain

/// `POST /users/track`: Braze's call for users' custom attributes (permission `users.track`), counted
/// against the workspace's hourly limit like the message calls. Unknown users are created; `events`
/// and `purchases` are refused. 201 with Braze's `attributes_processed`; an object that cannot be
/// applied makes it a 400 listing each such object in Braze's error shape, with nothing stored.
package struct UsersTrackController: Sendable {
    let authenticator: APIKeyAuthenticator
    let attributes: any UserAttributesStore
    let rateLimit: RateLimitMiddleware?

    package init(authenticator: APIKeyAuthenticator, attributes: any UserAttributesStore, rateLimit: RateLimitMiddleware? = nil) {
        self.authenticator = authenticator
        self.attributes = attributes
        self.rateLimit = rateLimit
    }

    package var routes: RouteCollection<LiveGateRequestContext> {
        let routes = RouteCollection(context: LiveGateRequestContext.self)
        routes.group("/users/track").add(middleware: APIKeyMiddleware(authenticator: authenticator, permission: .usersTrack))
            .add(rateLimit: rateLimit).post(use: track)
        return routes
    }

    @Sendable func track(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        guard let key = context.apiKey else { throw APIError.missingKey }
        let body = try await JSONRequestBody.read(request, context: context)
        let track = try UsersTrackRequest.parse(body.object)
        var answer = JSONObject()
        guard track.errors.isEmpty else {
            let count = track.errors.count + track.updates.count
            answer.set(
                "message",
                .string("Invalid request: \(track.errors.count) of \(count) attributes objects cannot be applied; nothing was stored"))
            answer.set("errors", .array(track.errors.map(Self.json)))
            return BroadcastChannelController.json(.badRequest, answer)
        }
        let processed = try await attributes.apply(track.updates.map(\.update), workspaceID: key.workspaceID)
        answer.set("attributes_processed", .integer(processed))
        answer.set("message", .string("success"))
        return BroadcastChannelController.json(.created, answer)
    }

    /// Braze's error entry: what is wrong, in which array, at which index.
    static func json(_ error: UsersTrackRequest.ObjectError) -> JSONValue {
        var entry = JSONObject()
        entry.set("type", .string(error.type))
        entry.set("input_array", .string("attributes"))
        entry.set("index", .integer(error.index))
        return .object(entry)
    }
}
