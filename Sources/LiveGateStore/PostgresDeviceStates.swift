import Foundation
import LiveGateDomain
import PostgresClient

/// Device state reports in `activity_device_states`, each applied in one transaction with what it changes.
package struct PostgresDeviceStates: DeviceStateRepository {
    let pool: PostgresConnectionPool
    /// Who subscribes to `device.state`: written with the report it describes.
    let events: (any EventInterest)?

    package init(pool: PostgresConnectionPool, events: (any EventInterest)? = nil) {
        self.pool = pool
        self.events = events
    }

    /// A report replaces the row's state unless the row's is newer by the device's clock; at the same
    /// instant the further state wins (active, stale, ended, dismissed), so a repeated or reordered pair
    /// settles the same way. A device clock ahead of the server's counts as now: a skewed clock cannot pin
    /// a state.
    static let stateIsNewer = """
        (s.reported_at, array_position(ARRAY['active', 'stale', 'ended', 'dismissed'], s.state))
            <= (EXCLUDED.reported_at, array_position(ARRAY['active', 'stale', 'ended', 'dismissed'], EXCLUDED.state))
        """

    /// `frequent_pushes_enabled` is ordered on its own, by the time of the report that carried it: a report
    /// without it keeps it, an older one never replaces it (whatever its state), and at the same instant
    /// `false` wins (the smaller budget), so a reordered pair settles the same way.
    static let frequentPushesIsNewer = """
        EXCLUDED.frequent_pushes_enabled IS NOT NULL
            AND (s.frequent_pushes_reported_at IS NULL
                 OR (s.frequent_pushes_reported_at, NOT s.frequent_pushes_enabled)
                    <= (EXCLUDED.frequent_pushes_reported_at, NOT EXCLUDED.frequent_pushes_enabled))
        """

    /// One statement for both: the row is written when either is newer, each column kept unless its own
    /// part is; `applied` tells whether the state was (the row holds this report's state and time).
    static let upsert = PostgresStatement(
        name: "livegate_device_state_report",
        sql: """
            INSERT INTO activity_device_states AS s (
                app_id, activity_id, device_id, state, channel_id, reported_at,
                frequent_pushes_enabled, frequent_pushes_reported_at)
            VALUES (
                $1, $2, $3, $4, $5, least(coalesce($6::timestamptz, now()), now()),
                $7::boolean, CASE WHEN $7::boolean IS NOT NULL THEN least(coalesce($6::timestamptz, now()), now()) END)
            ON CONFLICT (app_id, activity_id, device_id) DO UPDATE
            SET state = CASE WHEN \(stateIsNewer) THEN EXCLUDED.state ELSE s.state END,
                channel_id = CASE WHEN \(stateIsNewer) THEN EXCLUDED.channel_id ELSE s.channel_id END,
                reported_at = CASE WHEN \(stateIsNewer) THEN EXCLUDED.reported_at ELSE s.reported_at END,
                frequent_pushes_enabled = CASE WHEN \(frequentPushesIsNewer)
                    THEN EXCLUDED.frequent_pushes_enabled ELSE s.frequent_pushes_enabled END,
                frequent_pushes_reported_at = CASE WHEN \(frequentPushesIsNewer)
                    THEN EXCLUDED.frequent_pushes_reported_at ELSE s.frequent_pushes_reported_at END,
                received_at = now()
            WHERE (\(stateIsNewer)) OR (\(frequentPushesIsNewer))
            RETURNING (reported_at, state) = (least(coalesce($6::timestamptz, now()), now()), $4) AS applied
            """)

    package func report(_ report: DeviceStateReport, app: App) async throws -> DeviceStateOutcome {
        try await pool.transaction { connection in
            let rows = try connection.query(
                Self.upsert,
                [
                    app.id, report.activityID, report.deviceID, report.state.rawValue, report.channelID, report.reportedAt,
                    report.frequentPushesEnabled,
                ])
            guard let row = rows.first, try row.require("applied", as: Bool.self) else { return DeviceStateOutcome(applied: false) }
            if events?.wants(.deviceState, workspaceID: app.workspaceID, appID: app.id) == true {
                try EventStatement.insert([.deviceState(report, app: app)], on: connection)
            }
            if report.state.isOver {
                // Retired as an `end` retires it; a token registered after this report arrived (a new
                // activity under the same tag) is kept.
                let retired = try connection.query(
                    """
                    DELETE FROM activity_tokens
                    WHERE app_id = $1 AND activity_id = $2 AND device_id = $3 AND updated_at <= now()
                    RETURNING push_token
                    """,
                    [app.id, report.activityID, report.deviceID])
                if let row = retired.first, events?.wants(.tokenRemoved, workspaceID: app.workspaceID, appID: app.id) == true {
                    let event = OutgoingEvent.token(
                        .tokenRemoved, kind: .activity(tag: report.activityID), app: app, deviceID: report.deviceID,
                        externalID: report.externalID, token: try row.require("push_token"), reason: "ended")
                    try EventStatement.insert([event], on: connection)
                }
                return DeviceStateOutcome(applied: true)
            }
            let confirmed = try StartConfirmationStatements.confirm(
                appID: app.id, activityID: report.activityID, deviceID: report.deviceID, events: events, app: app, on: connection)
            return DeviceStateOutcome(applied: true, confirmedStarts: confirmed)
        }
    }
}
