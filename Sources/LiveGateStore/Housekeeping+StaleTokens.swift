import LiveGateDomain
import PostgresClient
import UUIDText

/// Update tokens not refreshed within their lifetime, retired: a device that stopped refreshing one has
/// ended its activity or lost it. Each retired token is a `token.removed` event (reason `expired`) for
/// the workspaces and apps that subscribe, written by the statement that deletes it.
extension Housekeeping {
    /// Tokens older than `$1` seconds.
    static let staleTokens = "updated_at < now() - make_interval(secs => $1)"

    /// One batch (`$2` at most) deleted, and their events written where the workspace (`$3`) or app
    /// (`$4`) subscribes, with the fields `OutgoingEvent.token` gives an update token's removal.
    static let retireStaleTokensWithEvents = """
        WITH retired AS (
            DELETE FROM activity_tokens WHERE ctid IN (\(batchSelection("activity_tokens", where: staleTokens)))
            RETURNING app_id, activity_id, device_id, user_id, push_token
        ),
        removed_events AS (
            INSERT INTO events (workspace_id, app_id, type, data)
            SELECT a.workspace_id, r.app_id, 'token.removed',
                   json_build_object('activity_id', r.activity_id, 'token_kind', 'update', 'activity_attributes_type', NULL,
                                     'external_id', u.external_id, 'device_id', r.device_id,
                                     'token', right(r.push_token, 8), 'reason', 'expired')::text
            FROM retired r JOIN apps a ON a.id = r.app_id LEFT JOIN users u ON u.id = r.user_id
            WHERE a.workspace_id = ANY($3::uuid[]) OR r.app_id = ANY($4::uuid[])
            ORDER BY r.app_id, r.activity_id, r.device_id
        )
        SELECT count(*)::int AS retired FROM retired
        """

    /// Retires the update tokens not refreshed within `lifetime` seconds; returns how many. With no one
    /// subscribed to `token.removed`, a plain delete.
    func retireStaleTokens(lifetime: Double) async throws -> Int {
        let subscribers = events?.subscribers(of: .tokenRemoved) ?? EventSubscribers()
        guard !subscribers.isEmpty else { return try await deleteInBatches("activity_tokens", where: Self.staleTokens, lifetime) }
        let workspaces = subscribers.workspaces.map(\.lowercasedText)
        let apps = subscribers.apps.map(\.lowercasedText)
        var total = 0
        while true {
            let rows = try await pool.query(Self.retireStaleTokensWithEvents, [lifetime, batchSize, workspaces, apps])
            let retired: Int = try rows.first?.require("retired") ?? 0
            total += retired
            if retired < batchSize { return total }
        }
    }
}
