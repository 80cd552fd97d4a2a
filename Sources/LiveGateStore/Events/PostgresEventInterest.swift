import Foundation
import LiveGateDomain
import NIOConcurrencyHelpers
import PostgresClient

/// Who subscribes to which events, read from PostgreSQL and kept in memory: `wants` answers from the
/// last snapshot, `reload` (every few seconds, and at once after this gateway changes an endpoint)
/// reads a new one. Webhook endpoints take their types, paused ones included (their events wait for
/// them); a workspace with a live key that has `events.read` takes every type, for `GET /events`.
package final class PostgresEventInterest: EventInterest {
    let pool: PostgresConnectionPool
    private let snapshot = NIOLockedValueBox(EventSubscriptions.none)

    package init(pool: PostgresConnectionPool) {
        self.pool = pool
    }

    package func wants(_ type: EventType, workspaceID: UUID, appID: UUID?) -> Bool {
        snapshot.withLockedValue { $0.wants(type, workspaceID: workspaceID, appID: appID) }
    }

    package func subscribers(of type: EventType) -> EventSubscribers {
        snapshot.withLockedValue { $0.subscribers(of: type) }
    }

    package var subscriptions: EventSubscriptions { snapshot.withLockedValue { $0 } }

    package func reload() async throws {
        let rows = try await pool.query(
            """
            SELECT workspace_id, app_id, event_types, false AS everything FROM webhook_endpoints
            UNION ALL
            SELECT DISTINCT workspace_id, NULL::uuid, '{}'::text[], true FROM api_keys
            WHERE revoked_at IS NULL AND 'events.read' = ANY(permissions)
            """)
        var loaded = EventSubscriptions()
        for row in rows {
            let workspaceID: UUID = try row.require("workspace_id")
            var workspace = loaded.workspaces[workspaceID] ?? EventSubscriptions.Workspace()
            if try row.require("everything", as: Bool.self) {
                workspace.everything = true
            } else {
                let types = Set(try row.require("event_types", as: [String].self).map(EventType.init(rawValue:)))
                if let appID: UUID = try row.decode("app_id") {
                    workspace.byApp[appID, default: []].formUnion(types)
                } else {
                    workspace.allApps.formUnion(types)
                }
            }
            loaded.workspaces[workspaceID] = workspace
        }
        snapshot.withLockedValue { $0 = loaded }
    }
}
