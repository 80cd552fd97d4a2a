import APNsCore
import Foundation
import HTTPTypes
import Hummingbird
import LiveGateDomain
import Logging
import UUIDText

/// `/webhooks`: a workspace's webhook endpoints (permission `webhooks.manage`). `POST` makes one and
/// answers its secret, once; `GET` lists them or reads one, with how sending to it goes; `DELETE`
/// removes one; `POST /webhooks/{id}/resume` sends again to a paused one.
package struct WebhookController: Sendable {
    let authenticator: APIKeyAuthenticator
    let apps: AppDirectory
    let webhooks: any WebhookStore
    let allowsHTTP: Bool

    package init(authenticator: APIKeyAuthenticator, apps: AppDirectory, webhooks: any WebhookStore, allowsHTTP: Bool) {
        self.authenticator = authenticator
        self.apps = apps
        self.webhooks = webhooks
        self.allowsHTTP = allowsHTTP
    }

    package var routes: RouteCollection<LiveGateRequestContext> {
        let routes = RouteCollection(context: LiveGateRequestContext.self)
        let managed = routes.group("/webhooks")
            .add(middleware: APIKeyMiddleware(authenticator: authenticator, permission: .webhooksManage))
        managed.post(use: create)
        managed.get(use: list)
        managed.get(":webhook_id", use: read)
        managed.delete(":webhook_id", use: delete)
        managed.post(":webhook_id/resume", use: resume)
        return routes
    }

    @Sendable func create(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        guard let key = context.apiKey else { throw APIError.missingKey }
        let body = try await JSONRequestBody.read(request, context: context)
        let made = try WebhookRequest.parse(body.object, allowsHTTP: allowsHTTP)
        let app = try await made.appID.asyncMap { try await apps.app(identifier: $0, ofKeyIn: context) }
        let secret = WebhookSignature.newSecret()
        let endpoint = try await webhooks.create(
            workspaceID: key.workspaceID, appID: app?.id, url: made.url, eventTypes: made.eventTypes, secret: secret)
        context.logger.info(
            "webhook endpoint created",
            metadata: [
                "webhook_id": "\(endpoint.id.lowercasedText)", "app_id": "\(app?.identifier ?? "-")",
                "events": "\(made.eventTypes.map(\.rawValue).joined(separator: ","))",
            ])
        var answer = JSONObject()
        answer.set("webhook_id", .string(endpoint.id.lowercasedText))
        answer.set("secret", .string(secret))
        answer.set("url", .string(endpoint.url))
        answer.set("events", .array(endpoint.eventTypes.map { .string($0.rawValue) }))
        answer.set("app_id", endpoint.appIdentifier.map(JSONValue.string) ?? .null)
        answer.set("message", .string("success"))
        return BroadcastChannelController.json(.created, answer)
    }

    @Sendable func list(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        guard let key = context.apiKey else { throw APIError.missingKey }
        let query = QueryParameters(request.uri.query, allowed: [])
        try query.throwIfAny()
        let endpoints = try await webhooks.list(workspaceID: key.workspaceID)
        var answer = JSONObject()
        answer.set("webhooks", .array(endpoints.map { .object(WebhookJSON.object($0)) }))
        answer.set("message", .string("success"))
        return BroadcastChannelController.json(.ok, answer)
    }

    @Sendable func read(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        guard let key = context.apiKey else { throw APIError.missingKey }
        let text = context.parameters.get("webhook_id") ?? ""
        guard let id = UUID(uuidString: text), let endpoint = try await webhooks.endpoint(id: id, workspaceID: key.workspaceID) else {
            throw Self.notFound(text)
        }
        var answer = WebhookJSON.object(endpoint)
        answer.set("message", .string("success"))
        return BroadcastChannelController.json(.ok, answer)
    }

    @Sendable func delete(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        guard let key = context.apiKey else { throw APIError.missingKey }
        let text = context.parameters.get("webhook_id") ?? ""
        guard let id = UUID(uuidString: text), try await webhooks.delete(id: id, workspaceID: key.workspaceID) else {
            throw Self.notFound(text)
        }
        context.logger.info("webhook endpoint deleted", metadata: ["webhook_id": "\(id.lowercasedText)"])
        var answer = JSONObject()
        answer.set("message", .string("success"))
        return BroadcastChannelController.json(.ok, answer)
    }

    @Sendable func resume(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        guard let key = context.apiKey else { throw APIError.missingKey }
        let text = context.parameters.get("webhook_id") ?? ""
        guard let id = UUID(uuidString: text), let endpoint = try await webhooks.resume(id: id, workspaceID: key.workspaceID, by: key)
        else {
            throw Self.notFound(text)
        }
        context.logger.info("webhook endpoint resumed", metadata: ["webhook_id": "\(id.lowercasedText)"])
        var answer = WebhookJSON.object(endpoint)
        answer.set("message", .string("success"))
        return BroadcastChannelController.json(.ok, answer)
    }

    static func notFound(_ id: String) -> APIError {
        APIError(.notFound, "Webhook not found", errors: ["no webhook '\(id.prefix(64))' in this API key's workspace"])
    }
}

extension Optional {
    fileprivate func asyncMap<Mapped>(_ transform: (Wrapped) async throws -> Mapped) async throws -> Mapped? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
