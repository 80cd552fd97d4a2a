import Foundation
import LiveGateDomain
import PostgresClient

/// `PushToStartHealth` in one statement: the type's tokens by age (through their unique index's
/// app and type), its removals of the last day, and its starts of the last day (`dispatches_starts_idx`)
/// with their targets.
package struct PostgresPushToStartHealth: PushToStartHealthRecords {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) {
        self.pool = pool
    }

    package func health(appID: UUID, attributesType: String) async throws -> PushToStartHealth {
        let row = try await pool.query(
            """
            SELECT tokens.*, removed.*, starts.*
            FROM (
                SELECT count(*)::int AS tokens,
                       count(*) FILTER (WHERE updated_at > now() - interval '1 day')::int AS within_day,
                       count(*) FILTER (WHERE updated_at <= now() - interval '1 day'
                                          AND updated_at > now() - interval '7 days')::int AS within_week,
                       count(*) FILTER (WHERE updated_at <= now() - interval '7 days'
                                          AND updated_at > now() - interval '30 days')::int AS within_month,
                       count(*) FILTER (WHERE updated_at <= now() - interval '30 days')::int AS older
                FROM push_to_start_tokens WHERE app_id = $1 AND attributes_type = $2
            ) tokens,
            (
                SELECT count(*)::int AS removed FROM push_to_start_token_removals
                WHERE app_id = $1 AND attributes_type = $2 AND removed_at > now() - interval '1 day'
            ) removed,
            (
                SELECT count(DISTINCT d.id)::int AS starts,
                       count(t.dispatch_id) FILTER (WHERE t.apns_status = 200)::int AS sent,
                       count(t.confirmed_at) FILTER (WHERE t.apns_status = 200)::int AS confirmed
                FROM dispatches d LEFT JOIN dispatch_targets t ON t.dispatch_id = d.id
                WHERE d.app_id = $1 AND d.attributes_type = $2 AND d.event = 'start'
                  AND d.created_at > now() - interval '1 day'
            ) starts
            """,
            [appID, attributesType])[0]
        var health = PushToStartHealth()
        health.tokens = try row.require("tokens")
        health.withinDay = try row.require("within_day")
        health.withinWeek = try row.require("within_week")
        health.withinMonth = try row.require("within_month")
        health.older = try row.require("older")
        health.removedLastDay = try row.require("removed")
        health.startsLastDay = try row.require("starts")
        health.sentLastDay = try row.require("sent")
        health.confirmedLastDay = try row.require("confirmed")
        return health
    }
}
