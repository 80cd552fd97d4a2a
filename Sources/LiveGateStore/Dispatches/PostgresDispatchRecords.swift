import APNsCore
import Foundation
import LiveGateDomain
import PostgresClient

/// Dispatch records in PostgreSQL. The API's status is derived in SQL from the stored one: a pending
/// dispatch whose `send_at` is ahead is `scheduled`, and one still being delivered after it was
/// superseded or cancelled already shows so (its worker stops at its next batch).
package struct PostgresDispatchRecords: DispatchRecords {
    let pool: PostgresConnectionPool
    /// A standby's pool for reading records; nil: `pool`.
    let reads: PostgresConnectionPool?
    /// Who subscribes to `dispatch.cancelled`: a pending dispatch cancelled here ends here.
    package var events: (any EventInterest)? = nil

    package init(pool: PostgresConnectionPool, reads: PostgresConnectionPool? = nil) {
        self.pool = pool
        self.reads = reads
    }

    /// The columns of a record, `d` being the dispatch. A start's confirmation figures come from its
    /// targets (`c`, joined by `confirmationJoin`).
    static let columns = """
        SELECT d.id, a.app_identifier, d.activity_id, d.event, d.external_id,
               CASE WHEN d.status = 'pending' AND d.send_at > now() THEN 'scheduled'
                    WHEN d.status = 'delivering' AND d.cancel_requested_at IS NOT NULL THEN 'cancelled'
                    WHEN d.status = 'delivering' AND d.superseded_by IS NOT NULL THEN 'superseded'
                    ELSE d.status END AS state,
               d.created_at, d.send_at, d.completed_at, d.superseded_by,
               d.sent_count, d.failed_count, d.retried_count, d.removed_count,
               d.attributes_type, d.audience, d.segment_id,
               c.start_sent, c.start_confirmed, c.start_unconfirmed, c.median_confirm_seconds
        """
    static let confirmationJoin = """
        LEFT JOIN apps a ON a.id = d.app_id
        LEFT JOIN LATERAL (
            SELECT count(*) FILTER (WHERE t.apns_status = 200 OR t.confirmed_at IS NOT NULL)::int AS start_sent,
                   count(t.confirmed_at)::int AS start_confirmed,
                   count(*) FILTER (WHERE t.apns_status = 200 AND t.confirmed_at IS NULL)::int AS start_unconfirmed,
                   percentile_cont(0.5) WITHIN GROUP (
                       ORDER BY extract(epoch FROM t.confirmed_at - coalesce(t.answered_at, d.created_at))::float8
                   ) AS median_confirm_seconds
            FROM dispatch_targets t WHERE d.event = 'start' AND t.dispatch_id = d.id
        ) c ON true
        """
    static let select = """
        \(columns)
        FROM dispatches d
        \(confirmationJoin)
        WHERE d.id = $1 AND d.workspace_id = $2
        """

    /// From the standby when there is one; a dispatch it does not have yet (just accepted, the standby a
    /// moment behind) is read from the primary, so a 201's dispatch is never a 404.
    package func record(_ id: UUID, workspaceID: UUID) async throws -> DispatchRecord? {
        if let reads, let record = try await reads.query(Self.select, [id, workspaceID]).first.map(Self.record(from:)) {
            return record
        }
        return try await pool.query(Self.select, [id, workspaceID]).first.map(Self.record(from:))
    }

    package func cancel(_ id: UUID, workspaceID: UUID) async throws -> DispatchCancellation {
        let events = events
        return try await pool.transaction { connection in
            // A pending (or scheduled) dispatch ends here; one being delivered keeps its status until its
            // worker stops, which ends it as 'cancelled'.
            let changed = try connection.query(
                """
                UPDATE dispatches
                SET cancel_requested_at = now(),
                    status = CASE WHEN status = 'pending' THEN 'cancelled' ELSE status END,
                    completed_at = CASE WHEN status = 'pending' THEN now() ELSE completed_at END
                WHERE id = $1 AND workspace_id = $2 AND status IN ('pending', 'delivering')
                  AND superseded_by IS NULL AND cancel_requested_at IS NULL
                RETURNING app_id, status, activity_id, external_id, event, sent_count, failed_count, removed_count
                """,
                [id, workspaceID])
            let cancelled = changed.count == 1
            if let row = changed.first, try row.require("status", as: String.self) == DispatchState.cancelled.rawValue,
                let events, let appID: UUID = try row.decode("app_id"),
                events.wants(.dispatchCancelled, workspaceID: workspaceID, appID: appID)
            {
                var event = OutgoingEvent(.dispatchCancelled, workspaceID: workspaceID, appID: appID)
                event.set("activity_id", try row.require("activity_id", as: String.self))
                event.set("dispatch_id", id.uuidString.lowercased())
                event.set("external_id", try row.decode("external_id", as: String.self))
                event.set("event", try row.require("event", as: String.self))
                event.set("status", DispatchState.cancelled.rawValue)
                event.set("sent", try row.require("sent_count", as: Int.self))
                event.set("failed", try row.require("failed_count", as: Int.self))
                event.set("removed", try row.require("removed_count", as: Int.self))
                try EventStatement.insert([event], on: connection)
            }
            guard let row = try connection.query(Self.select, [id, workspaceID]).first else { return .notFound }
            let record = try Self.record(from: row)
            return cancelled ? .cancelled(record) : .alreadyFinished(record)
        }
    }

    static func record(from row: PostgresRow) throws -> DispatchRecord {
        guard let event = LiveActivityEvent(rawValue: try row.require("event")),
            let state = DispatchState(rawValue: try row.require("state"))
        else { throw PostgresError(code: .decodingFailed, message: "a dispatch has an unknown event or status") }
        let superseded: UUID? = try row.decode("superseded_by")
        return DispatchRecord(
            id: try row.require("id"), appIdentifier: try row.decode("app_identifier"),
            activityID: try row.require("activity_id"), event: event, externalID: try row.decode("external_id"),
            state: state, acceptedAt: try row.require("created_at"), sendAt: try row.decode("send_at"),
            completedAt: try row.decode("completed_at"), supersededBy: state == .superseded ? superseded : nil,
            devices: .init(
                sent: try row.require("sent_count"), failed: try row.require("failed_count"),
                retried: try row.require("retried_count"), removed: try row.require("removed_count")),
            confirmation: event == .start
                ? StartConfirmationFigures(
                    sent: try row.require("start_sent"), confirmed: try row.require("start_confirmed"),
                    unconfirmed: try row.require("start_unconfirmed"), medianSecondsToConfirm: try row.decode("median_confirm_seconds"))
                : nil,
            audience: try ClaimStatement.audience(of: row))
    }
}
