import APNsCore
import Foundation
import Hummingbird
import LiveGateDomain
import Logging
import UUIDText

/// `POST /messages/live_activity/update` and `/start`: validate, build the APNs payload
/// once, commit a dispatch, and only then answer 201.
package struct LiveActivityController: Sendable {
    let authenticator: APIKeyAuthenticator
    let apps: AppDirectory
    let dispatches: any DispatchStore
    /// Read by `start` (a live channel goes in the payload) and `end` (the channel starts its retention).
    let channels: any ChannelStore
    /// How long an ended activity's channel is kept before housekeeping deletes it at APNs.
    let channelRetention: Duration
    let clock: MessageClock
    /// Nil: no rate limit (for measuring what the limiter costs).
    let rateLimit: RateLimitMiddleware?
    /// A start's `segment_id` must name one; its regular expressions are checked here too.
    let segments: any SegmentStore
    /// What the app decodes: payloads its types would not are refused (or, in warn mode, noted).
    let activityTypes: ActivityTypeDirectory

    package init(
        authenticator: APIKeyAuthenticator, apps: AppDirectory, dispatches: any DispatchStore, channels: any ChannelStore,
        segments: any SegmentStore, activityTypes: ActivityTypeDirectory, channelRetention: Duration, clock: MessageClock = .system,
        rateLimit: RateLimitMiddleware? = nil
    ) {
        self.segments = segments
        self.activityTypes = activityTypes
        self.authenticator = authenticator
        self.apps = apps
        self.dispatches = dispatches
        self.channels = channels
        self.channelRetention = channelRetention
        self.clock = clock
        self.rateLimit = rateLimit
    }

    package var routes: RouteCollection<LiveGateRequestContext> {
        let routes = RouteCollection(context: LiveGateRequestContext.self)
        // Start and update share the workspace's one hourly limit.
        for (path, permission, handler) in [
            ("/messages/live_activity/update", APIKeyPermission.liveActivityUpdate, update),
            ("/messages/live_activity/start", .liveActivityStart, start),
        ] as [(RouterPath, APIKeyPermission, @Sendable (Request, LiveGateRequestContext) async throws -> Response)] {
            routes.group(path).add(middleware: APIKeyMiddleware(authenticator: authenticator, permission: permission))
                .add(rateLimit: rateLimit).post(use: handler)
        }
        return routes
    }

    @Sendable func update(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        let body = try await JSONRequestBody.read(request, context: context)
        let acceptedAt = clock.now()
        var message = try LiveActivityUpdateRequest.parse(body.object, now: acceptedAt)
        let app = try await apps.app(identifier: message.common.appID, ofKeyIn: context)
        let verdict = try await activityTypes.checkUpdate(
            message.common.contentState, appID: app.id, activityID: message.common.activityID)
        try verdict.throwIfRefused()
        message.common.contentState = verdict.contentState
        let accepted = try prepare(
            request, body: body, app: app, message.common, acceptedAt: acceptedAt, payload: message.payload)
        let dispatch = accepted.dispatch(event: message.event, externalID: message.externalID)
        let requestWarnings = message.warnings
        let outcome = try await dispatches.commitUpdate(dispatch, idempotency: accepted.idempotency) { resolution in
            var warnings = requestWarnings
            if !resolution.hasRegisteredTokens {
                // Braze answers plain success here: devices may register after the call.
                warnings.append(Self.noTokenWarning(activityID: dispatch.activityID, externalID: dispatch.externalID))
            }
            return MessageAcceptance(dispatchID: dispatch.id, warnings: warnings).stored
        }
        GatewayMetrics.accepted(dispatch.event, outcome)
        await noteWarnings(verdict, of: dispatch, app: app, outcome: outcome, context: context)
        if dispatch.event == .end, dispatch.externalID == nil, dispatch.sendAt == nil, outcome != .keyReused {
            // After the commit, replays included: a retried end finishes what a crash here left undone.
            // An end narrowed to one user's devices leaves the activity, and its channel, to the others.
            // A scheduled end ends the channel when it is delivered (DispatchLife.Preparation.endChannel).
            try await channels.end(app: app, activityID: dispatch.activityID, deletingAfter: channelRetention)
        }
        context.logger.info(
            "live activity message accepted",
            metadata: [
                "dispatch_id": "\(dispatch.id.lowercasedText)", "event": "\(dispatch.event)", "app_id": "\(accepted.app.identifier)",
            ])
        return try MessageAcceptance.response(for: outcome)
    }

    @Sendable func start(_ request: Request, context: LiveGateRequestContext) async throws -> Response {
        let body = try await JSONRequestBody.read(request, context: context)
        let acceptedAt = clock.now()
        var message = try LiveActivityStartRequest.parse(body.object, now: acceptedAt)
        let app = try await apps.app(identifier: message.common.appID, ofKeyIn: context)
        let verdict = try await activityTypes.checkStart(
            message.common.contentState, attributes: message.attributes, attributesType: message.attributesType, appID: app.id)
        try verdict.throwIfRefused()
        message.common.contentState = verdict.contentState
        message.attributes = verdict.attributes ?? message.attributes
        // One indexed read: an activity with a live channel is started on it.
        let channel = try await channels.channel(app: app, activityID: message.common.activityID)
        let liveChannelID = channel?.state == .live ? channel?.channelID : nil
        let accepted = try prepare(request, body: body, app: app, message.common, acceptedAt: acceptedAt) {
            message.payload(timestamp: $0, channel: liveChannelID)
        }
        let dispatch = accepted.dispatch(event: .start, externalID: nil)
        let targeting = StartTargeting(
            attributesType: message.attributesType, users: message.users, audience: try await audience(of: message, app: app))
        let outcome = try await dispatches.commitStart(dispatch, targeting: targeting, idempotency: accepted.idempotency) {
            resolution in
            let errors =
                resolution.unknownUsers.map { "\($0) was not found" }
                + resolution.usersWithoutToken.map { "\($0) has no push-to-start token for \(targeting.attributesType)" }
            return MessageAcceptance(dispatchID: dispatch.id, errors: errors).stored
        }
        GatewayMetrics.accepted(dispatch.event, outcome)
        await noteWarnings(verdict, of: dispatch, app: app, outcome: outcome, context: context)
        context.logger.info(
            "live activity start accepted",
            metadata: [
                "dispatch_id": "\(dispatch.id.lowercasedText)", "app_id": "\(accepted.app.identifier)", "users": "\(message.users.count)",
                "audience": "\(message.targetsAudience)",
            ])
        return try MessageAcceptance.response(for: outcome)
    }

    /// A message accepted although a warn-mode type would not decode it: counted and logged once per
    /// activity and hour. After the commit, so a failure here never costs the caller its 201.
    private func noteWarnings(
        _ verdict: PayloadVerdict, of dispatch: Dispatch, app: App, outcome: IdempotentOutcome, context: LiveGateRequestContext
    ) async {
        guard !verdict.warnings.isEmpty, case .committed = outcome else { return }
        do {
            try await activityTypes.noteWarnings(
                verdict, event: dispatch.event, app: app, activityID: dispatch.activityID, dispatchID: dispatch.id, now: Date())
        } catch {
            context.logger.warning(
                "could not log a content-state mismatch", metadata: ["app_id": "\(app.identifier)", "error": "\(error)"])
        }
    }

    /// A start to an audience, checked: its segment exists in the app's workspace and PostgreSQL can
    /// compile its regular expressions. Who matches is left to the delivery.
    private func audience(of message: LiveActivityStartRequest, app: App) async throws -> DispatchAudience? {
        guard message.targetsAudience else { return nil }
        if let segmentID = message.segmentID, try await segments.segment(id: segmentID, workspaceID: app.workspaceID) == nil {
            let problems = ValidationProblems()
            problems.add("segment_id '\(segmentID.lowercasedText)' is not a segment of this API key's workspace")
            try problems.throwIfAny()
        }
        if let custom = message.customAudience {
            try await AudienceChecks.checkRegularExpressions(of: custom.audience, at: "custom_audience", with: segments)
        }
        return DispatchAudience(
            attributesType: message.attributesType, customAudience: message.customAudience?.json, segmentID: message.segmentID)
    }

    /// What both endpoints do between finding the app and committing: read the idempotency key, and
    /// build the payload once, refusing it if APNs would. The payload's `timestamp`, by which devices
    /// order updates, is the time it is sent: `send_at` when scheduled.
    /// Not inlined: inlined into `update`, Swift 6.3.1's release build (-O) crashes in LLVM's coroutine
    /// split of `update` (signal 11 in emitSetAndGetSwiftErrorValueAround); debug builds are unaffected.
    @inline(never) private func prepare(
        _ request: Request, body: JSONRequestBody, app: App, _ common: CommonMessageFields, acceptedAt: Date,
        payload: (Int64) -> LiveActivityPayload
    ) throws -> PreparedMessage {
        let idempotency = try IdempotencyHeader.claim(request, body: body.bytes)
        let sentAt = common.sendAt ?? acceptedAt
        let bytes = payload(Int64(sentAt.timeIntervalSince1970)).encoded()
        try APNsPayloadLimit.check(bytes)
        return PreparedMessage(
            app: app, common: common, idempotency: idempotency, acceptedAt: acceptedAt, payload: bytes)
    }

    /// The app named by `app_id`, if it belongs to the calling key's workspace. Another workspace's app
    /// is answered exactly like a missing one, so ids cannot be probed across workspaces.
    static func noTokenWarning(activityID: String, externalID: String?) -> String {
        if let externalID {
            return "no device of external_id '\(externalID)' has registered a push token for activity_id '\(activityID)' yet"
        }
        return "no push token is registered for activity_id '\(activityID)' yet"
    }
}

extension APIError {
    static func unknownApp(_ identifier: String, inWorkspace: Bool = true) -> APIError {
        let scope = inWorkspace ? " in this API key's workspace" : ""
        return APIError(.badRequest, "Unknown app_id", errors: ["no app has app_id '\(identifier.prefix(128))'\(scope)"])
    }
}
