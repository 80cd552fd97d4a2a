import APNsCore
import Foundation
import LiveGateDomain
import PostgresClient
import UUIDText

/// Writes events beside what they describe, in the caller's transaction: one statement for all of them
/// (arrays and unnest), none when there are none. Their order within the statement is their id order.
enum EventStatement {
    static let statement = PostgresStatement(
        name: "livegate_insert_events",
        sql: """
            INSERT INTO events (workspace_id, app_id, type, data)
            SELECT e.workspace_id, nullif(e.app_id, '')::uuid, e.type, e.data
            FROM unnest($1::text[]::uuid[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS e(workspace_id, app_id, type, data, ord)
            ORDER BY e.ord
            """)

    static func insert(_ events: [OutgoingEvent], on connection: PostgresConnection) throws {
        guard !events.isEmpty else { return }
        try connection.query(
            statement,
            [
                events.map(\.workspaceID.lowercasedText), events.map { $0.appID?.lowercasedText ?? "" }, events.map(\.type.rawValue),
                events.map { String(decoding: $0.fields.serialized(), as: UTF8.self) },
            ])
    }
}
