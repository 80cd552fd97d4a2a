import APNsCore
import Foundation
import LiveGateDomain
import PostgresClient

/// The SQL of a fan-out: pages of devices in id order (keyset pagination, one round trip per page, never
/// one per token), and the token changes a page's answers call for.
enum FanoutStatements {
    /// Which rows a dispatch fans out to, after a cursor: one filter for both the page and the count.
    /// Update and end: the tag's update tokens (only the named user's, with `external_id`), fresh enough.
    static let activityTargets = """
        FROM activity_tokens t LEFT JOIN users u ON u.id = t.user_id
        WHERE t.app_id = $1 AND t.activity_id = $2 AND t.id > $3
          AND t.updated_at > now() - make_interval(secs => $4)
          AND ($5 = '' OR u.workspace_id = $6 AND u.external_id = $5)
        """
    /// After a broadcast reached channel `$7`: the same, but for devices that report following it. They
    /// got the update through the channel; a token push too would only repeat it.
    static let activityTargetsBesideChannel =
        activityTargets + """
              AND NOT EXISTS (
                  SELECT 1 FROM activity_device_states s
                  WHERE s.app_id = t.app_id AND s.activity_id = t.activity_id AND s.device_id = t.device_id
                    AND s.channel_id = $7 AND s.state IN ('active', 'stale'))
            """
    /// Start: the push-to-start tokens the API resolved when it accepted the dispatch.
    static let startTargets = """
        FROM dispatch_targets t LEFT JOIN users u ON u.id = t.user_id
        WHERE t.dispatch_id = $1 AND t.id > $2
        """

    /// The device's latest frequent-updates setting for the app, whichever of its activities reported
    /// it (the user allows them per app): `t` is its token's row. At the same instant, `false` wins.
    static func frequentPushesEnabled(app: String) -> String {
        """
        (SELECT s.frequent_pushes_enabled FROM activity_device_states s
         WHERE s.app_id = \(app) AND s.device_id = t.device_id AND s.frequent_pushes_enabled IS NOT NULL
         ORDER BY s.frequent_pushes_reported_at DESC, s.frequent_pushes_enabled LIMIT 1)
        """
    }

    static let activityPage = page(of: activityTargets, limit: "$7", name: "livegate_fanout_activity_page")
    static let activityPageBesideChannel = page(
        of: activityTargetsBesideChannel, limit: "$8", name: "livegate_fanout_activity_page_beside_channel")
    /// The same pages with each device's frequent-updates setting, for an update under a frequent budget.
    static let activityPageWithSettings = page(
        of: activityTargets, limit: "$7", name: "livegate_fanout_activity_page_settings", readsSettings: true)
    static let activityPageBesideChannelWithSettings = page(
        of: activityTargetsBesideChannel, limit: "$8", name: "livegate_fanout_activity_page_beside_channel_settings",
        readsSettings: true)
    static let startPage = page(of: startTargets, limit: "$3", name: "livegate_fanout_start_page")

    private static func page(of targets: String, limit: String, name: String, readsSettings: Bool = false) -> PostgresStatement {
        let settings = readsSettings ? ", \(frequentPushesEnabled(app: "t.app_id")) AS frequent_pushes_enabled" : ""
        return PostgresStatement(
            name: name, sql: "SELECT t.id, t.push_token, u.external_id\(settings) \(targets) ORDER BY t.id LIMIT \(limit)")
    }

    /// The statement's filter and its parameters, `limit` (if any) last.
    private static func targets(
        of claimed: ClaimedDispatch, after cursor: Int64, tokenLifetime: Duration
    ) -> (sql: String, page: PostgresStatement, parameters: [(any PostgresBindable)?]) {
        let dispatch = claimed.dispatch
        if dispatch.event == .start {
            return (startTargets, startPage, [dispatch.id, cursor])
        }
        let parameters: [(any PostgresBindable)?] = [
            dispatch.appID, dispatch.activityID, cursor, tokenLifetime.inSeconds, dispatch.externalID ?? "",
            dispatch.workspaceID,
        ]
        let readsSettings = claimed.priorityBudget?.readsDeviceSettings == true
        if let channel = claimed.deliveredBroadcastChannel {
            return (
                activityTargetsBesideChannel, readsSettings ? activityPageBesideChannelWithSettings : activityPageBesideChannel,
                parameters + [channel.rawValue]
            )
        }
        return (activityTargets, readsSettings ? activityPageWithSettings : activityPage, parameters)
    }

    /// The devices with a token under the dispatch's tag that follow `channelID`: the pushes a broadcast
    /// to it saves.
    static func channelMembers(of claimed: ClaimedDispatch, channelID: ChannelID, on connection: PostgresConnection) throws -> Int {
        let dispatch = claimed.dispatch
        let rows = try connection.query(
            """
            SELECT count(*)::int AS n
            FROM activity_device_states s
            JOIN activity_tokens t ON t.app_id = s.app_id AND t.activity_id = s.activity_id AND t.device_id = s.device_id
            WHERE s.app_id = $1 AND s.activity_id = $2 AND s.channel_id = $3 AND s.state IN ('active', 'stale')
            """,
            [dispatch.appID, dispatch.activityID, channelID.rawValue])
        return try rows.first?.require("n") ?? 0
    }

    static func page(
        _ claimed: ClaimedDispatch, after cursor: Int64, limit: Int, tokenLifetime: Duration,
        on connection: PostgresConnection
    ) throws -> [FanoutTarget] {
        if let audience = claimed.audience {
            return try AudienceFanoutStatements.page(claimed, audience: audience, after: cursor, limit: limit, on: connection)
        }
        let targets = targets(of: claimed, after: cursor, tokenLifetime: tokenLifetime)
        return try Self.targets(
            from: connection.query(targets.page, targets.parameters + [limit]),
            readsSettings: claimed.dispatch.event != .start && claimed.priorityBudget?.readsDeviceSettings == true)
    }

    /// A page's rows (`id`, `push_token`, `external_id`, and `frequent_pushes_enabled` when `readsSettings`)
    /// as targets.
    static func targets(from rows: PostgresRows, readsSettings: Bool = false) throws -> [FanoutTarget] {
        try rows.compactMap { row in
            // The tables only hold valid hex; a row that is not is skipped rather than stalling the fan-out.
            guard let token = PushToken(hex: try row.require("push_token")) else { return nil }
            return FanoutTarget(
                cursor: try row.require("id"), token: token, externalID: try row.decode("external_id"),
                frequentPushesEnabled: readsSettings ? try row.decode("frequent_pushes_enabled") : nil)
        }
    }

    static func count(_ claimed: ClaimedDispatch, tokenLifetime: Duration, on connection: PostgresConnection) throws -> Int {
        if let audience = claimed.audience {
            return try AudienceFanoutStatements.count(claimed, audience: audience, on: connection)
        }
        let targets = targets(of: claimed, after: claimed.fanoutCursor, tokenLifetime: tokenLifetime)
        let rows = try connection.query("SELECT count(*)::int AS n \(targets.sql)", targets.parameters)
        return try rows.first?.require("n") ?? 0
    }

    /// Deletes tokens APNs called dead, wherever this app keeps them. A device that registered a new
    /// token meanwhile has another value in its row, so its new registration survives.
    /// A push-to-start token's removal is counted for its type's health (`push_to_start_token_removals`).
    /// Returns the `token.removed` events (reason `apns`) of the tokens deleted, when `wantsEvents`.
    @discardableResult
    static func removeDeadTokens(
        _ tokens: [PushToken], of dispatch: Dispatch, wantsEvents: Bool = false, on connection: PostgresConnection
    ) throws -> [OutgoingEvent] {
        guard !tokens.isEmpty else { return [] }
        guard dispatch.event == .start else {
            let rows = try connection.query(
                """
                DELETE FROM activity_tokens t WHERE app_id = $1 AND push_token = ANY($2::text[])
                RETURNING t.activity_id, t.device_id, t.push_token,
                          (SELECT u.external_id FROM users u WHERE u.id = t.user_id) AS external_id
                """, [dispatch.appID, tokens.map(\.hex)])
            guard wantsEvents else { return [] }
            return try rows.map { row in
                OutgoingEvent.token(
                    .tokenRemoved, kind: .activity(tag: try row.require("activity_id")), workspaceID: dispatch.workspaceID,
                    appID: dispatch.appID, deviceID: try row.require("device_id"), externalID: try row.decode("external_id"),
                    token: try row.require("push_token"), reason: "apns")
            }
        }
        let rows = try connection.query(
            """
            WITH removed AS (
                DELETE FROM push_to_start_tokens t WHERE app_id = $1 AND push_token = ANY($2::text[])
                RETURNING t.app_id, t.attributes_type, t.device_id, t.push_token,
                          (SELECT u.external_id FROM users u WHERE u.id = t.user_id) AS external_id
            ),
            counted AS (
                INSERT INTO push_to_start_token_removals (app_id, attributes_type) SELECT app_id, attributes_type FROM removed
            )
            SELECT attributes_type, device_id, push_token, external_id FROM removed
            """,
            [dispatch.appID, tokens.map(\.hex)])
        guard wantsEvents else { return [] }
        return try rows.map { row in
            OutgoingEvent.token(
                .tokenRemoved, kind: .pushToStart(attributesType: try row.require("attributes_type")), workspaceID: dispatch.workspaceID,
                appID: dispatch.appID, deviceID: try row.require("device_id"), externalID: try row.decode("external_id"),
                token: try row.require("push_token"), reason: "apns")
        }
    }

    /// Records each device's answer as its last push: a start's on its target row (made here for a start
    /// to an audience); an update's or end's accepted pushes as one pushed page, its other answers on
    /// their update tokens' rows.
    static func recordAnswers(_ answers: [DeviceAnswer], of dispatch: Dispatch, on connection: PostgresConnection) throws {
        if dispatch.audience != nil { return try AudienceFanoutStatements.recordAnswers(answers, of: dispatch, on: connection) }
        if dispatch.event == .start { return try recordAnswers(answers, ofStart: true, on: connection) }
        try recordActivityAnswers([(dispatch, answers)], on: connection)
    }

    /// The answers to updates and ends of several dispatches: each one's accepted pushes as a pushed page
    /// when there are enough of them, the rest on token rows, in token order (see below).
    static func recordActivityAnswers(_ answered: [(Dispatch, [DeviceAnswer])], on connection: PostgresConnection) throws {
        var rest: [DeviceAnswer] = []
        for (dispatch, answers) in answered where !answers.isEmpty {
            rest += try PushedPageStatements.recordAccepted(answers, of: dispatch, on: connection)
        }
        try recordAnswers(rest.sorted { $0.cursor < $1.cursor }, ofStart: false, on: connection)
    }

    /// Rows are locked in the order of `answers`: a page's come in token order, and a batch of small
    /// dispatches sorts its own (`PostgresDeliveryQueue.settle`), so two writers cannot deadlock.
    static func recordAnswers(_ answers: [DeviceAnswer], ofStart isStart: Bool, on connection: PostgresConnection) throws {
        guard !answers.isEmpty else { return }
        if isStart { return try StartConfirmationStatements.recordAnswers(answers, on: connection) }
        let (dispatches, positions) = DeviceAnswer.dispatches(of: answers)
        try connection.query(
            """
            UPDATE activity_tokens t
            SET last_dispatch_id = ($1::text[]::uuid[])[a.dispatch], last_apns_status = a.status, last_pushed_at = now()
            FROM unnest($2::text[]::int[], $3::text[]::bigint[], $4::text[]::smallint[]) AS a(dispatch, id, status)
            WHERE t.id = a.id
            """,
            [dispatches, positions, answers.map { String($0.cursor) }, answers.map { String($0.status) }])
    }

    /// Retires the update tokens an `end` reached: that activity is over on those devices. A row whose
    /// token changed since (a new activity under the same tag) is kept.
    /// With `eventsOf`, the dispatch whose `end` it was: returns their `token.removed` events (reason
    /// `ended`).
    @discardableResult
    static func retireEndedTokens(
        _ targets: [FanoutTarget], eventsOf dispatch: Dispatch? = nil, on connection: PostgresConnection
    ) throws -> [OutgoingEvent] {
        guard !targets.isEmpty else { return [] }
        let rows = try connection.query(
            """
            DELETE FROM activity_tokens t
            USING unnest($1::text[]::bigint[], $2::text[]) AS ended(id, push_token)
            WHERE t.id = ended.id AND t.push_token = ended.push_token
            RETURNING t.app_id, t.activity_id, t.device_id, t.push_token,
                      (SELECT u.external_id FROM users u WHERE u.id = t.user_id) AS external_id
            """,
            [targets.map { String($0.cursor) }, targets.map(\.token.hex)])
        guard let dispatch else { return [] }
        return try rows.map { row in
            OutgoingEvent.token(
                .tokenRemoved, kind: .activity(tag: try row.require("activity_id")), workspaceID: dispatch.workspaceID,
                appID: try row.require("app_id"), deviceID: try row.require("device_id"), externalID: try row.decode("external_id"),
                token: try row.require("push_token"), reason: "ended")
        }
    }
}
