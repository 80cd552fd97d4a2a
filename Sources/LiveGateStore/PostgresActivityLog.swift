import APNsCore
import Foundation
import LiveGateDomain
import PostgresClient

/// The activity log in PostgreSQL, read newest first by keyset pagination on (occurred_at, id).
package struct PostgresActivityLog: ActivityLogRepository {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) {
        self.pool = pool
    }

    /// A NULL parameter switches its filter off, so one statement serves every combination but one: a
    /// dispatch's entries have a statement of their own, whose `l.dispatch_id = $11` the planner can
    /// answer from `message_activity_log_dispatch_idx` (a dispatch's page asks every second or two; a
    /// generic plan of `$11 IS NULL OR …` scans the whole log each time: 60 ms against 0.5 ms on 200,000 rows).
    static func pageSQL(dispatchFilter: String) -> String {
        """
        SELECT l.id, (extract(epoch FROM l.occurred_at) * 1000000)::bigint AS occurred_micros, a.app_identifier,
               l.type, l.message, l.activity_id, l.dispatch_id, l.external_id, l.masked_token,
               l.apns_status::int AS apns_status, l.apns_reason, l.apns_id, l.details::text AS details
        FROM message_activity_log l LEFT JOIN apps a ON a.id = l.app_id
        WHERE l.workspace_id = $1 \(dispatchFilter)
          AND ($2::uuid IS NULL OR l.app_id = $2)
          AND ($3::text IS NULL OR l.type = $3)
          AND ($4::text IS NULL OR l.activity_id = $4)
          AND ($5::text IS NULL OR l.external_id = $5)
          AND ($6::timestamptz IS NULL OR l.occurred_at >= $6)
          AND ($7::timestamptz IS NULL OR l.occurred_at < $7)
          AND ($8::bigint IS NULL
               OR (l.occurred_at, l.id) < ('epoch'::timestamptz + $8::bigint * interval '1 microsecond', $9::bigint))
        ORDER BY l.occurred_at DESC, l.id DESC
        LIMIT $10
        """
    }

    static let pageStatement = PostgresStatement(name: "livegate_activity_log_page", sql: pageSQL(dispatchFilter: ""))
    static let dispatchPageStatement = PostgresStatement(
        name: "livegate_activity_log_dispatch_page", sql: pageSQL(dispatchFilter: "AND l.dispatch_id = $11::uuid"))

    static let suppressedStatement = PostgresStatement(
        name: "livegate_activity_log_suppressed",
        sql: """
            SELECT a.app_identifier, h.type, h.hour, h.total
            FROM message_activity_log_hours h LEFT JOIN apps a ON a.id = h.app_id
            WHERE h.workspace_id = $1 AND h.total > $2
              AND ($3::uuid IS NULL OR h.app_id = $3)
              AND ($4::text IS NULL OR h.type = $4)
              AND ($5::timestamptz IS NULL OR h.hour + interval '1 hour' > $5)
              AND ($6::timestamptz IS NULL OR h.hour < $6)
            ORDER BY h.hour DESC, a.app_identifier, h.type
            LIMIT 500
            """)

    package func page(workspaceID: UUID, appID: UUID?, query: ActivityLogQuery) async throws -> ActivityLogPage {
        let (rows, hours) = try await pool.withConnection { connection in
            var parameters: [(any PostgresBindable)?] = [
                workspaceID, appID, query.type?.rawValue, query.activityID, query.externalID, query.since, query.until,
                query.cursor?.microseconds, query.cursor?.id,
                // One more than asked: whether there is a next page.
                query.limit + 1,
            ]
            let statement: PostgresStatement
            if let dispatchID = query.dispatchID {
                statement = Self.dispatchPageStatement
                parameters.append(dispatchID)
            } else {
                statement = Self.pageStatement
            }
            let rows = try connection.query(statement, parameters)
            let hours = try connection.query(
                Self.suppressedStatement,
                [workspaceID, ActivityLogEntry.storedPerTypePerHour, appID, query.type?.rawValue, query.since, query.until])
            return (rows, hours)
        }
        let entries = try rows.prefix(query.limit).map(Self.entry(from:))
        return ActivityLogPage(
            entries: entries,
            nextCursor: rows.count > query.limit
                ? entries.last.map { KeysetCursor(microseconds: $0.occurredAtMicroseconds, id: $0.id) } : nil,
            suppressedHours: try hours.map { row in
                ActivityLogPage.SuppressedHour(
                    appIdentifier: try row.decode("app_identifier"), type: ActivityLogType(rawValue: try row.require("type")),
                    hour: try row.require("hour"), total: try row.require("total"))
            })
    }

    static func entry(from row: PostgresRow) throws -> ActivityLogPage.Entry {
        ActivityLogPage.Entry(
            id: try row.require("id"), occurredAtMicroseconds: try row.require("occurred_micros"),
            appIdentifier: try row.decode("app_identifier"),
            entry: ActivityLogEntry(
                type: ActivityLogType(rawValue: try row.require("type")), message: try row.require("message"),
                activityID: try row.decode("activity_id"), dispatchID: try row.decode("dispatch_id"),
                externalID: try row.decode("external_id"), maskedToken: try row.decode("masked_token"),
                apnsStatus: try row.decode("apns_status"), apnsReason: try row.decode("apns_reason"),
                apnsID: try row.decode("apns_id"), details: try details(row.decode("details"))))
    }

    /// The stored details object; nil for entries without (delivery's), and for anything but an object.
    static func details(_ text: String?) throws -> JSONObject? {
        guard let text else { return nil }
        return try JSONValue.parse(text).objectValue
    }
}
