import Foundation
import LiveGateDomain
import PostgresClient
import UUIDText

/// `events` as readers page through it (`EventLog`). Only events of transactions older than every
/// transaction still running are read (`pg_snapshot_xmin`): positions are (transaction, id), so no event
/// can later commit behind one already read.
package struct PostgresEventLog: EventLog {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) {
        self.pool = pool
    }

    static let page = PostgresStatement(
        name: "livegate_event_page",
        sql: """
            SELECT e.id, e.xid::text AS xid, e.type, e.occurred_at, e.workspace_id, a.app_identifier, e.data
            FROM events e LEFT JOIN apps a ON a.id = e.app_id
            WHERE e.workspace_id = $1 AND (e.xid, e.id) > ($2::text::xid8, $3::bigint)
              AND e.xid < pg_snapshot_xmin(pg_current_snapshot())
              AND ($4::uuid IS NULL OR e.app_id IS NULL OR e.app_id = $4::uuid)
              AND ($5::text[] IS NULL OR e.type = ANY($5::text[]))
            ORDER BY e.xid, e.id
            LIMIT $6
            """)

    package func events(
        workspaceID: UUID, appID: UUID?, types: Set<EventType>?, after position: EventPosition, limit: Int
    ) async throws -> [StoredEvent] {
        let rows = try await pool.withConnection { connection in
            try connection.query(
                Self.page,
                [
                    workspaceID, String(position.transaction), position.id, appID, types.map { $0.map(\.rawValue).sorted() },
                    limit,
                ])
        }
        return try rows.map { row in
            guard let transaction = UInt64(try row.require("xid", as: String.self)) else {
                throw PostgresError(code: .decodingFailed, message: "an event's transaction id is not a number")
            }
            let id: Int64 = try row.require("id")
            return StoredEvent(
                id: id, position: EventPosition(transaction: transaction, id: id),
                type: EventType(rawValue: try row.require("type")), occurredAt: try row.require("occurred_at"),
                workspaceID: try row.require("workspace_id"), appIdentifier: try row.decode("app_identifier"),
                data: try row.require("data"))
        }
    }
}
