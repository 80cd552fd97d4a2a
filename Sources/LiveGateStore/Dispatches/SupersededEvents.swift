import Foundation
import LiveGateDomain
import PostgresClient
import UUIDText

/// `dispatch.superseded` for the dispatches a supersession ends at once (those still `pending`), written
/// by the statement that supersedes them, so the event commits or rolls back with it. A dispatch being
/// delivered when it is superseded has its event written by its worker, when it ends it
/// (`DispatchBatchStatements.finish`).
enum SupersededEvents {
    /// The event's fields, as `OutgoingEvent.finished` gives a superseded dispatch's, from a row `s` of
    /// what `SupersessionStatement.supersede(olderThanRowsOf:…)` returns.
    static func data(of s: String) -> String {
        """
        json_build_object('activity_id', \(s).activity_id, 'dispatch_id', \(s).id, 'external_id', \(s).external_id,
                          'event', \(s).event, 'status', \(s).status, 'sent', \(s).sent_count,
                          'failed', \(s).failed_count, 'removed', \(s).removed_count,
                          'superseded_by', \(s).superseded_by)::text
        """
    }

    /// A supersession at a claim or handover, prepared twice: as it is, and writing the events of what it
    /// ends at once for the apps of `$2`. The first runs when no claimed dispatch's app is subscribed, so
    /// a claim no one listens to costs what it did, and the second adds no round trip.
    struct Statements {
        let plain: PostgresStatement
        let withEvents: PostgresStatement

        /// `update`: an `UPDATE … RETURNING` built by `SupersessionStatement.supersede(olderThanRowsOf:…)`.
        init(name: String, update: String) {
            plain = PostgresStatement(name: name, sql: update)
            withEvents = PostgresStatement(
                name: "\(name)_with_events",
                sql: """
                    WITH superseded AS (\(update)),
                    superseded_events AS (
                        INSERT INTO events (workspace_id, app_id, type, data)
                        SELECT s.workspace_id, s.app_id, 'dispatch.superseded', \(SupersededEvents.data(of: "s"))
                        FROM superseded s
                        WHERE s.status = 'superseded' AND s.app_id = ANY($2::uuid[])
                        ORDER BY s.id
                    )
                    SELECT id, superseded_by FROM superseded
                    """)
        }
    }

    /// The apps among `claimed`'s whose `dispatch.superseded` someone subscribes to. A dispatch is only
    /// ever superseded by one of its own app, so these are the apps whose superseded dispatches want
    /// their event.
    static func apps(of claimed: [Dispatch], events: (any EventInterest)?) -> [UUID] {
        guard let events else { return [] }
        var apps: Set<UUID> = []
        for dispatch in claimed where events.wants(.dispatchSuperseded, workspaceID: dispatch.workspaceID, appID: dispatch.appID) {
            apps.insert(dispatch.appID)
        }
        return Array(apps)
    }
}
