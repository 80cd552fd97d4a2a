import APNsCore
import Foundation
import HTTPTypes
import Hummingbird
import LiveGateDomain
import Logging
import UUIDText

/// `/segments`: a workspace's named audiences (permission `segments.manage`). `POST /segments` creates
/// one; `GET /segments/list` and `GET /segments/details` answer in Braze's shapes; `DELETE
/// /segments/{segment_id}` removes one (a start to it not yet delivered then fails, saying why).
package struct SegmentController: Sendable {
    static let pageSize = 100

    let authenticator: APIKeyAuthenticator
    let segments: any SegmentStore

    package init(authenticator: APIKeyAuthenticator, segments: any SegmentStore) {
        self.authenticator = authenticator
        self.segments = segments
    }

    package var routes: RouteCollection<LiveGateRequestContext> {
        let routes = RouteCollection(context: LiveGateRequestContext.self)
        let managed = routes.group("/segments")
            .add(middleware: APIKeyMiddleware(authenticator: authenticator, permission: .segmentsManage))
        managed.post(use: create)
        managed.get("list", use: list)
        managed.get("details", use: details)
        managed.delete(":segment_id", use: delete)
        return routes
    }

    @Sendable func create(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        guard let key = context.apiKey else { throw APIError.missingKey }
        let body = try await JSONRequestBody.read(request, context: context)
        let problems = ValidationProblems()
        let fields = FieldReader(body.object, problems: problems)
        let name = fields.string("name", required: true, maxLength: 255)
        var audience: Audience?
        if let given = fields.value("audience") {
            audience = AudienceReader.read(given, at: "audience", problems: problems)
        } else {
            problems.add("audience is required: a connected audience object")
        }
        try problems.throwIfAny()
        try await AudienceChecks.checkRegularExpressions(of: audience!, at: "audience", with: segments)
        let segment = try await segments.create(name: name!, audience: body.object["audience"]!, workspaceID: key.workspaceID)
        context.logger.info("segment created", metadata: ["segment_id": "\(segment.id.lowercasedText)"])
        var answer = JSONObject()
        answer.set("segment_id", .string(segment.id.lowercasedText))
        answer.set("message", .string("success"))
        return BroadcastChannelController.json(.created, answer)
    }

    /// Braze's `{"segments": [{"id", "name", "analytics_tracking_enabled", "tags"}], "message"}`, 100 a
    /// page (`page` from 0), oldest first unless `sort_direction=desc`.
    @Sendable func list(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        guard let key = context.apiKey else { throw APIError.missingKey }
        var query = QueryParameters(request.uri.query, allowed: ["page", "sort_direction"])
        var page = 0
        if let text = query.text("page") {
            if let value = Int(text), (0...100_000).contains(value) {
                page = value
            } else {
                query.problem("page must be a whole number from 0 to 100000")
            }
        }
        let direction = query.text("sort_direction") ?? "asc"
        if !["asc", "desc"].contains(direction) { query.problem("sort_direction must be asc or desc") }
        try query.throwIfAny()
        let found = try await segments.list(
            workspaceID: key.workspaceID, page: page, pageSize: Self.pageSize, newestFirst: direction == "desc")
        var answer = JSONObject()
        answer.set(
            "segments",
            .array(
                found.map { segment in
                    var entry = JSONObject()
                    entry.set("id", .string(segment.id.lowercasedText))
                    entry.set("name", .string(segment.name))
                    entry.set("analytics_tracking_enabled", .bool(false))
                    entry.set("tags", .array([]))
                    return .object(entry)
                }))
        answer.set("message", .string("success"))
        return BroadcastChannelController.json(.ok, answer)
    }

    /// Braze's details shape, with the audience itself beside its text description.
    @Sendable func details(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        guard let key = context.apiKey else { throw APIError.missingKey }
        var query = QueryParameters(request.uri.query, allowed: ["segment_id"])
        let text = query.text("segment_id", required: true)
        try query.throwIfAny()
        guard let text, let id = UUID(uuidString: text),
            let segment = try await segments.segment(id: id, workspaceID: key.workspaceID)
        else { throw Self.notFound(text ?? "") }
        var answer = JSONObject()
        answer.set("message", .string("success"))
        answer.set("created_at", .string(DispatchJSON.time(segment.createdAt)))
        answer.set("updated_at", .string(DispatchJSON.time(segment.updatedAt)))
        answer.set("name", .string(segment.name))
        answer.set("description", .null)
        let problems = ValidationProblems()
        let audience = AudienceReader.read(segment.audience, at: "audience", problems: problems)
        answer.set("text_description", audience.map { .string(AudienceDescription.text($0)) } ?? .null)
        answer.set("audience", segment.audience)
        answer.set("tags", .array([]))
        answer.set("teams", .array([]))
        return BroadcastChannelController.json(.ok, answer)
    }

    @Sendable func delete(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        guard let key = context.apiKey else { throw APIError.missingKey }
        let text = context.parameters.get("segment_id") ?? ""
        guard let id = UUID(uuidString: text), try await segments.delete(id: id, workspaceID: key.workspaceID) else {
            throw Self.notFound(text)
        }
        context.logger.info("segment deleted", metadata: ["segment_id": "\(id.lowercasedText)"])
        var answer = JSONObject()
        answer.set("message", .string("success"))
        return BroadcastChannelController.json(.ok, answer)
    }

    static func notFound(_ id: String) -> APIError {
        APIError(.notFound, "Segment not found", errors: ["no segment '\(id.prefix(64))' in this API key's workspace"])
    }
}
