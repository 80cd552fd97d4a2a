import Foundation
import LiveGateDomain
import PostgresClient

/// Newest state first for starts to an audience: a start to an audience of an activity, taking effect,
/// supersedes the older unfinished starts to an audience of the same app and activity. One still
/// waiting ends as `superseded` at once; one being delivered gets `superseded_by` and stops at its next
/// page, so no device is started with the older content once the newer one is on its way. (A start
/// to named users neither supersedes nor is superseded: it is a few devices, sent at once.)
enum AudienceStartSupersession {
    static let covering = SupersessionStatement.Covering(
        newer: "true", older: "older.event = 'start' AND (older.audience IS NOT NULL OR older.segment_id IS NOT NULL)")

    static let onClaim = SupersededEvents.Statements(
        name: "livegate_supersede_audience_starts",
        update: SupersessionStatement.supersede(
            olderThanRowsOf: "(SELECT id, app_id, activity_id, send_at, created_at, sequence FROM dispatches WHERE id = ANY($1::uuid[]))",
            newest: SupersessionStatement.tookEffectLast, olderCondition: SupersessionStatement.tookEffectBefore,
            covering: covering))

    /// Runs `onClaim` for the claimed starts to an audience; returns each dispatch superseded with the one
    /// that did. Those it ends at once have their `dispatch.superseded` written, for the apps subscribed.
    static func supersede(
        byClaimed claimed: [Dispatch], events: (any EventInterest)?, on connection: PostgresConnection
    ) throws -> [UUID: UUID] {
        try SupersessionStatement.run(onClaim, byClaimed: claimed, events: events, on: connection)
    }
}
