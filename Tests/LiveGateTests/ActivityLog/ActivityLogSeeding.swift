import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport

/// Activity log rows written straight into PostgreSQL, as delivery would have left them, at chosen times.
extension TestDatabase {
    @discardableResult
    func seedLogEntry(
        _ app: App, type: ActivityLogType = .other, message: String = "APNs refused the push (400 BadTopic).",
        at time: Date, activityID: String? = "game-42", externalID: String? = nil, token: String? = "1a2b3c4d",
        status: Int? = 400, reason: String? = "BadTopic", dispatchID: UUID? = UUID()
    ) async throws -> Int64 {
        try await pool.query(
            """
            INSERT INTO message_activity_log (occurred_at, workspace_id, app_id, type, message, activity_id, dispatch_id,
                                              external_id, masked_token, apns_status, apns_reason, apns_id)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
            RETURNING id
            """,
            [
                time, app.workspaceID, app.id, type.rawValue, message, activityID, dispatchID, externalID, token, status, reason,
                "123e4567-e89b-12d3-a456-426614174000",
            ])[0].require("id")
    }
}
