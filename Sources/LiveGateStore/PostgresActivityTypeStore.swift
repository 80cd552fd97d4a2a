import APNsCore
import Foundation
import LiveGateDomain
import PostgresClient

/// Apps' ActivityAttributes types in `activity_types`, the types activities' devices reported in
/// `activity_tokens`, and warn-mode mismatches in `activity_payload_mismatches`.
package struct PostgresActivityTypeStore: ActivityTypeStore {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) {
        self.pool = pool
    }

    package func put(_ type: ActivityType) async throws -> Bool {
        let rows = try await pool.query(
            """
            INSERT INTO activity_types AS t (app_id, name, content_state, attributes, mode) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (app_id, name) DO UPDATE
                SET content_state = EXCLUDED.content_state, attributes = EXCLUDED.attributes, mode = EXCLUDED.mode,
                    updated_at = now()
            RETURNING (xmax = 0) AS created
            """,
            [type.appID, type.name, type.contentState.json.description, type.attributes?.json.description, type.mode.rawValue])
        return try rows.first?.require("created") ?? false
    }

    package func types(appID: UUID) async throws -> [ActivityType] {
        let rows = try await pool.query(
            "SELECT name, content_state, attributes, mode, updated_at FROM activity_types WHERE app_id = $1 ORDER BY name",
            [appID])
        return try rows.map { row in
            let name: String = try row.require("name")
            // Stored only after they compiled: one that no longer does is a bug worth failing loudly for.
            let contentState = try PayloadSchema(
                parsing: try JSONValue.parse(try row.require("content_state", as: String.self)), at: "content_state")
            let attributes = try (try row.decode("attributes", as: String.self)).map {
                try PayloadSchema(parsing: try JSONValue.parse($0), at: "attributes")
            }
            return ActivityType(
                appID: appID, name: name, contentState: contentState, attributes: attributes,
                mode: PayloadCheckMode(rawValue: try row.require("mode")), updatedAt: try row.require("updated_at"))
        }
    }

    package func delete(name: String, appID: UUID) async throws -> Bool {
        try await pool.query("DELETE FROM activity_types WHERE app_id = $1 AND name = $2", [appID, name]).affectedRowCount > 0
    }

    package func typesOfActivity(appID: UUID, activityID: String) async throws -> [String] {
        try await pool.query(
            """
            SELECT DISTINCT attributes_type FROM activity_tokens
            WHERE app_id = $1 AND activity_id = $2 AND attributes_type IS NOT NULL
            """,
            [appID, activityID]
        ).map { try $0.require("attributes_type") }
    }

    package func recordMismatch(_ entry: ActivityLogEntry, workspaceID: UUID, appID: UUID) async throws -> Bool {
        try await pool.transaction { connection in
            let first =
                try connection.query(
                    """
                    INSERT INTO activity_payload_mismatches (app_id, activity_id, hour, message, dispatch_id)
                    VALUES ($1, $2, date_trunc('hour', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', $3, $4)
                    ON CONFLICT DO NOTHING
                    """,
                    [appID, entry.activityID ?? "", entry.message, entry.dispatchID]
                ).affectedRowCount == 1
            guard first else { return false }
            _ = try ActivityLogStatement.insert([entry], workspaceID: workspaceID, appID: appID, on: connection)
            return true
        }
    }
}
