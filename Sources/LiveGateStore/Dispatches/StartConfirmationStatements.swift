import APNsCore
import Foundation
import LiveGateDomain
import PostgresClient
import UUIDText

/// The SQL of start confirmation: each push-to-start target's APNs answer, its confirmation when the
/// started activity shows up on the device, and the check of finished starts for devices that never
/// confirmed them.
enum StartConfirmationStatements {
    /// Confirms the device's unconfirmed push-to-starts of one activity, found through the device
    /// (`dispatch_targets_unconfirmed_idx`). `$1` app, `$2` activity id, `$3` device id.
    static let confirm = PostgresStatement(
        name: "livegate_confirm_starts",
        sql: """
            UPDATE dispatch_targets t SET confirmed_at = now()
            FROM dispatches d
            WHERE t.device_id = $3 AND t.confirmed_at IS NULL
              AND d.id = t.dispatch_id AND d.app_id = $1 AND d.activity_id = $2 AND d.event = 'start'
            RETURNING extract(epoch FROM now() - coalesce(t.answered_at, d.created_at))::float8 AS waited,
                      d.attributes_type, d.id AS dispatch_id,
                      (SELECT u.external_id FROM users u WHERE u.id = t.user_id) AS external_id
            """)

    /// With `events` (who subscribes), writes a `start.confirmed` event per start confirmed, for `app`.
    static func confirm(
        appID: UUID, activityID: String, deviceID: String, events: (any EventInterest)? = nil, app: App? = nil,
        on connection: PostgresConnection
    ) throws -> ConfirmedStarts {
        let rows = try connection.query(confirm, [appID, activityID, deviceID])
        if let app, !rows.isEmpty, events?.wants(.startConfirmed, workspaceID: app.workspaceID, appID: app.id) == true {
            let confirmed = try rows.map { row in
                var event = OutgoingEvent(.startConfirmed, workspaceID: app.workspaceID, appID: app.id)
                event.set("activity_id", activityID)
                event.set("dispatch_id", try row.require("dispatch_id", as: UUID.self).lowercasedText)
                event.set("external_id", try row.decode("external_id", as: String.self))
                event.set("device_id", deviceID)
                event.set("activity_attributes_type", try row.decode("attributes_type", as: String.self))
                event.fields.set("waited_seconds", .number(String(format: "%.3f", max(0, try row.require("waited", as: Double.self)))))
                return event
            }
            try EventStatement.insert(confirmed, on: connection)
        }
        return ConfirmedStarts(
            waits: try rows.map { .seconds(max(0, try $0.require("waited", as: Double.self))) },
            attributesType: try rows.first?.decode("attributes_type"))
    }

    /// The `start.unconfirmed` events of checked starts (`$1`, ids of those whose workspace subscribes):
    /// one per device APNs took the push for that never confirmed it.
    static let unconfirmedEvents = PostgresStatement(
        name: "livegate_unconfirmed_start_events",
        sql: """
            INSERT INTO events (workspace_id, app_id, type, data)
            SELECT d.workspace_id, d.app_id, 'start.unconfirmed',
                   json_build_object('activity_id', d.activity_id, 'dispatch_id', d.id,
                                     'external_id', (SELECT u.external_id FROM users u WHERE u.id = t.user_id),
                                     'device_id', t.device_id, 'activity_attributes_type', d.attributes_type,
                                     'token', right(t.push_token, 8))::text
            FROM dispatches d JOIN dispatch_targets t ON t.dispatch_id = d.id
            WHERE d.id = ANY($1::text[]::uuid[]) AND t.apns_status = 200 AND t.confirmed_at IS NULL
            ORDER BY d.id, t.id
            """)

    /// Records APNs's answer for each start target a page or batch sent.
    static func recordAnswers(_ answers: [DeviceAnswer], on connection: PostgresConnection) throws {
        guard !answers.isEmpty else { return }
        let (dispatches, positions) = DeviceAnswer.dispatches(of: answers)
        try connection.query(
            """
            UPDATE dispatch_targets t SET apns_status = a.status, answered_at = now()
            FROM unnest($2::text[]::int[], $3::text[]::bigint[], $4::text[]::smallint[]) AS a(dispatch, id, status)
            WHERE t.dispatch_id = ($1::text[]::uuid[])[a.dispatch] AND t.id = a.id
            """,
            [dispatches, positions, answers.map { String($0.cursor) }, answers.map { String($0.status) }])
    }

    /// Takes up to `$2` starts finished more than `$1` seconds ago and not checked yet, marks them
    /// checked, and returns each with how many of its devices APNs took the push for and that never
    /// confirmed it. SKIP LOCKED: two gateways check different starts.
    static let checkFinished = PostgresStatement(
        name: "livegate_check_finished_starts",
        sql: """
            WITH due AS (
                SELECT id FROM dispatches
                WHERE event = 'start' AND completed_at IS NOT NULL AND confirmation_checked_at IS NULL
                  AND completed_at < now() - make_interval(secs => $1)
                ORDER BY completed_at LIMIT $2 FOR UPDATE SKIP LOCKED
            )
            UPDATE dispatches d SET confirmation_checked_at = now()
            FROM due
            WHERE d.id = due.id
            RETURNING d.id, d.workspace_id, d.app_id, d.activity_id,
                      (SELECT count(*)::int FROM dispatch_targets t
                       WHERE t.dispatch_id = d.id AND t.apns_status = 200 AND t.confirmed_at IS NULL) AS unconfirmed
            """)
}
