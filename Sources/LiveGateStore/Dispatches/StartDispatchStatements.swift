import APNsCore
import Foundation
import LiveGateDomain
import PostgresClient

/// Commits one start inside the caller's transaction (one with an `Idempotency-Key`, or to an audience):
/// a start to users as group commit writes many (`StartBatchStatements`), a start to an audience with
/// its audience, resolved by its delivery.
enum StartDispatchStatements {
    static func insert(
        _ dispatch: Dispatch, targeting: StartTargeting, on connection: PostgresConnection
    ) throws -> StartResolution {
        guard let audience = targeting.audience else {
            return try StartBatchStatements.insert([PendingStart(dispatch: dispatch, targeting: targeting)], on: connection)[0]
                .resolution
        }
        try connection.query(
            """
            INSERT INTO dispatches (id, workspace_id, app_id, event, activity_id, payload, priority, expires_at,
                                    send_at, next_attempt_at, attributes_type, audience, segment_id)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, coalesce($9, now()), $10, $11, $12)
            """,
            [
                dispatch.id, dispatch.workspaceID, dispatch.appID, dispatch.event.rawValue, dispatch.activityID,
                String(decoding: dispatch.payload, as: UTF8.self), dispatch.priority.rawValue, dispatch.expiresAt,
                dispatch.sendAt, targeting.attributesType, audience.customAudience?.description, audience.segmentID,
            ])
        return StartResolution(targetCount: 0, unknownUsers: [], usersWithoutToken: [])
    }
}
