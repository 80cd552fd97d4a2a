import APNsCore
import Foundation
import PostgresClient

/// Resolves a start's users to push-to-start tokens and commits the dispatch with them. Runs inside
/// the caller's transaction.
enum StartDispatchStatements {
    static func insert(
        _ dispatch: Dispatch, targeting: StartTargeting, on connection: PostgresConnection
    ) throws -> StartResolution {
        if let audience = targeting.audience {
            try insertDispatch(dispatch, attributesType: targeting.attributesType, audience: audience, on: connection)
            return StartResolution(targetCount: 0, unknownUsers: [], usersWithoutToken: [])
        }
        let userIDs = try resolveUsers(targeting.users, workspaceID: dispatch.workspaceID, on: connection)
        let known = Array(Set(userIDs.values))
        let tokens = try connection.query(
            """
            SELECT user_id, device_id, push_token FROM push_to_start_tokens
            WHERE app_id = $1 AND attributes_type = $2 AND user_id = ANY($3::bigint[])
            ORDER BY id
            """,
            [dispatch.appID, targeting.attributesType, known.map(String.init)])
        var usersWithTokens = Set<Int64>()
        var targetTokens: [String] = []
        var targetUsers: [String] = []
        var targetDevices: [String] = []
        for row in tokens {
            let userID: Int64 = try row.require("user_id")
            usersWithTokens.insert(userID)
            targetUsers.append(String(userID))
            targetDevices.append(try row.require("device_id"))
            targetTokens.append(try row.require("push_token"))
        }
        try insertDispatch(dispatch, attributesType: targeting.attributesType, audience: nil, on: connection)
        let inserted = try connection.query(
            """
            INSERT INTO dispatch_targets (dispatch_id, push_token, user_id, device_id)
            SELECT $1, token, user_id::bigint, device_id
            FROM unnest($2::text[], $3::text[], $4::text[]) AS t(token, user_id, device_id)
            ON CONFLICT DO NOTHING
            """,
            [dispatch.id, targetTokens, targetUsers, targetDevices])
        return StartResolution(
            targetCount: inserted.affectedRowCount,
            unknownUsers: targeting.users.filter { userIDs[$0] == nil },
            usersWithoutToken: targeting.users.filter { userIDs[$0].map { !usersWithTokens.contains($0) } ?? false })
    }

    private static func insertDispatch(
        _ dispatch: Dispatch, attributesType: String, audience: DispatchAudience?, on connection: PostgresConnection
    ) throws {
        try connection.query(
            """
            INSERT INTO dispatches (id, workspace_id, app_id, event, activity_id, payload, priority, expires_at,
                                    send_at, next_attempt_at, attributes_type, audience, segment_id)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, coalesce($9, now()), $10, $11, $12)
            """,
            [
                dispatch.id, dispatch.workspaceID, dispatch.appID, dispatch.event.rawValue, dispatch.activityID,
                String(decoding: dispatch.payload, as: UTF8.self), dispatch.priority.rawValue, dispatch.expiresAt,
                dispatch.sendAt, attributesType, audience?.customAudience?.description, audience?.segmentID,
            ])
    }

    /// The user id of each reference that names an existing user.
    static func resolveUsers(
        _ users: [UserReference], workspaceID: UUID, on connection: PostgresConnection
    ) throws -> [UserReference: Int64] {
        var externalIDs: [String] = []
        var aliasLabels: [String] = []
        var aliasNames: [String] = []
        for user in users {
            switch user {
            case .externalID(let id): externalIDs.append(id)
            case .alias(let alias):
                aliasLabels.append(alias.label)
                aliasNames.append(alias.name)
            }
        }
        var resolved: [UserReference: Int64] = [:]
        if !externalIDs.isEmpty {
            for row in try connection.query(
                "SELECT external_id, id FROM users WHERE workspace_id = $1 AND external_id = ANY($2::text[])",
                [workspaceID, externalIDs])
            {
                resolved[.externalID(try row.require("external_id"))] = try row.require("id")
            }
        }
        if !aliasLabels.isEmpty {
            for row in try connection.query(
                """
                SELECT a.alias_label, a.alias_name, a.user_id
                FROM unnest($2::text[], $3::text[]) AS r(label, name)
                JOIN user_aliases a ON a.workspace_id = $1 AND a.alias_label = r.label AND a.alias_name = r.name
                """,
                [workspaceID, aliasLabels, aliasNames])
            {
                resolved[.alias(UserAlias(label: try row.require("alias_label"), name: try row.require("alias_name")))] =
                    try row.require("user_id")
            }
        }
        return resolved
    }
}
