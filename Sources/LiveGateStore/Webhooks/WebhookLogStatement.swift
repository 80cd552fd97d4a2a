import APNsCore
import Foundation
import LiveGateDomain
import PostgresClient

/// Writes a webhook endpoint's activity log entry (paused, resumed) on the connection of the change it
/// records, so the entry commits or rolls back with it. Not counted against the per-app hourly cap of
/// `ActivityLogStatement`: an endpoint of every app has no app to count it under, and there is at most
/// one entry per pause (one per retry period) and one per resumption an admin asks for.
enum WebhookLogStatement {
    static let statement = PostgresStatement(
        name: "livegate_insert_webhook_log",
        sql: """
            INSERT INTO message_activity_log (workspace_id, app_id, type, message, details)
            VALUES ($1, $2, $3, $4, $5::text::jsonb)
            """)

    /// `appID`: the endpoint's app, nil for an endpoint of every app of the workspace.
    static func insert(_ entry: ActivityLogEntry, workspaceID: UUID, appID: UUID?, on connection: PostgresConnection) throws {
        let details = entry.details.map { String(decoding: JSONValue.object($0).serialized(), as: UTF8.self) }
        try connection.query(statement, [workspaceID, appID, entry.type.rawValue, entry.message, details])
    }
}
