import Foundation
import PostgresClient

/// Inserts update/end dispatches and, in the same statement, checks whether any device is registered
/// for each: one round trip, atomic on its own (no BEGIN/COMMIT needed outside a transaction).
enum UpdateDispatchStatement {
    static let columnsPerRow = 10

    static func insert(_ dispatches: [Dispatch], on connection: PostgresConnection) throws -> [UpdateResolution] {
        guard !dispatches.isEmpty else { return [] }
        var rows: [String] = []
        var parameters: [(any PostgresBindable)?] = []
        rows.reserveCapacity(dispatches.count)
        parameters.reserveCapacity(dispatches.count * columnsPerRow)
        for (position, dispatch) in dispatches.enumerated() {
            let base = position * columnsPerRow
            rows.append(
                "($\(base + 1)::int, $\(base + 2)::uuid, $\(base + 3)::uuid, $\(base + 4)::uuid, $\(base + 5)::text, "
                    + "$\(base + 6)::text, $\(base + 7)::text, $\(base + 8)::text, $\(base + 9)::smallint, "
                    + "$\(base + 10)::timestamptz)")
            parameters += [
                position, dispatch.id, dispatch.workspaceID, dispatch.appID, dispatch.event.rawValue,
                dispatch.activityID, dispatch.externalID, String(decoding: dispatch.payload, as: UTF8.self),
                dispatch.priority.rawValue, dispatch.expiresAt,
            ]
        }
        let result = try connection.query(
            """
            WITH batch (position, id, workspace_id, app_id, event, activity_id, external_id, payload, priority,
                        expires_at) AS (
                VALUES \(rows.joined(separator: ", "))
            ),
            inserted AS (
                INSERT INTO dispatches (id, workspace_id, app_id, event, activity_id, external_id, payload, priority,
                                        expires_at)
                SELECT id, workspace_id, app_id, event, activity_id, external_id, payload, priority, expires_at
                FROM batch
            )
            SELECT position, EXISTS (
                SELECT 1 FROM activity_tokens t
                WHERE t.app_id = batch.app_id AND t.activity_id = batch.activity_id
                  AND (batch.external_id IS NULL OR t.user_id IN (
                      SELECT u.id FROM users u
                      WHERE u.workspace_id = batch.workspace_id AND u.external_id = batch.external_id))
            ) AS has_tokens
            FROM batch ORDER BY position
            """,
            parameters)
        return try result.map { UpdateResolution(hasRegisteredTokens: try $0.require("has_tokens")) }
    }
}
