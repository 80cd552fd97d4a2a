import Foundation
import LiveGateDomain
import PostgresClient

/// Finds or creates the user a registration names, inside the caller's transaction.
enum UserResolution {
    /// Nil when neither an external id nor an alias is given. With both, the alias is attached to the
    /// external id's user unless it already belongs to someone.
    static func findOrCreate(
        externalID: String?, alias: UserAlias?, workspaceID: UUID,
        on connection: PostgresConnection
    ) throws -> Int64? {
        if let externalID {
            // DO UPDATE (a no-op) rather than DO NOTHING so the row comes back even when it already existed.
            let rows = try connection.query(
                """
                INSERT INTO users (workspace_id, external_id) VALUES ($1, $2)
                ON CONFLICT (workspace_id, external_id) DO UPDATE SET external_id = EXCLUDED.external_id
                RETURNING id
                """,
                [workspaceID, externalID])
            let userID: Int64 = try rows[0].require("id")
            if let alias {
                try connection.query(
                    """
                    INSERT INTO user_aliases (workspace_id, alias_label, alias_name, user_id) VALUES ($1, $2, $3, $4)
                    ON CONFLICT DO NOTHING
                    """,
                    [workspaceID, alias.label, alias.name, userID])
            }
            return userID
        }
        guard let alias else { return nil }
        if let existing = try aliasedUser(alias, workspaceID: workspaceID, on: connection) { return existing }
        let created: Int64 = try connection.query(
            "INSERT INTO users (workspace_id) VALUES ($1) RETURNING id", [workspaceID])[0].require("id")
        let claimed = try connection.query(
            """
            INSERT INTO user_aliases (workspace_id, alias_label, alias_name, user_id) VALUES ($1, $2, $3, $4)
            ON CONFLICT DO NOTHING
            """,
            [workspaceID, alias.label, alias.name, created])
        if claimed.affectedRowCount == 1 { return created }
        // Another registration made the alias first: use its user, and drop the one made here.
        try connection.query("DELETE FROM users WHERE id = $1", [created])
        return try aliasedUser(alias, workspaceID: workspaceID, on: connection)
    }

    static func aliasedUser(
        _ alias: UserAlias, workspaceID: UUID, on connection: PostgresConnection
    ) throws -> Int64? {
        try connection.query(
            "SELECT user_id FROM user_aliases WHERE workspace_id = $1 AND alias_label = $2 AND alias_name = $3",
            [workspaceID, alias.label, alias.name]
        ).first?.require("user_id")
    }
}
