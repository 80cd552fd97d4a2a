import Foundation
import LiveGateDomain
import PostgresClient

/// Device state reports in `activity_device_states`, each applied in one transaction with what it changes.
package struct PostgresDeviceStates: DeviceStateRepository {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) {
        self.pool = pool
    }

    /// A report replaces the row unless the row is newer by the device's clock; at the same instant the
    /// further state wins (active, stale, ended, dismissed), so a repeated or reordered pair settles the
    /// same way. A device clock ahead of the server's counts as now: a skewed clock cannot pin a state.
    static let upsert = PostgresStatement(
        name: "livegate_device_state_report",
        sql: """
            INSERT INTO activity_device_states AS s (app_id, activity_id, device_id, state, channel_id, reported_at)
            VALUES ($1, $2, $3, $4, $5, least(coalesce($6::timestamptz, now()), now()))
            ON CONFLICT (app_id, activity_id, device_id) DO UPDATE
            SET state = EXCLUDED.state, channel_id = EXCLUDED.channel_id, reported_at = EXCLUDED.reported_at,
                received_at = now()
            WHERE (s.reported_at, array_position(ARRAY['active', 'stale', 'ended', 'dismissed'], s.state))
                  <= (EXCLUDED.reported_at, array_position(ARRAY['active', 'stale', 'ended', 'dismissed'], EXCLUDED.state))
            RETURNING state
            """)

    package func report(_ report: DeviceStateReport, app: App) async throws -> DeviceStateOutcome {
        try await pool.transaction { connection in
            let rows = try connection.query(
                Self.upsert,
                [app.id, report.activityID, report.deviceID, report.state.rawValue, report.channelID, report.reportedAt])
            guard !rows.isEmpty else { return DeviceStateOutcome(applied: false) }
            if report.state.isOver {
                // Retired as an `end` retires it; a token registered after this report arrived (a new
                // activity under the same tag) is kept.
                try connection.query(
                    """
                    DELETE FROM activity_tokens
                    WHERE app_id = $1 AND activity_id = $2 AND device_id = $3 AND updated_at <= now()
                    """,
                    [app.id, report.activityID, report.deviceID])
                return DeviceStateOutcome(applied: true)
            }
            let confirmed = try StartConfirmationStatements.confirm(
                appID: app.id, activityID: report.activityID, deviceID: report.deviceID, on: connection)
            return DeviceStateOutcome(applied: true, confirmedStarts: confirmed)
        }
    }
}
