import APNsCore
import Foundation
import LiveGateDomain
import PostgresClient
import UUIDText

/// A start to users, waiting for group commit: the dispatch and whom it names.
struct PendingStart: Sendable {
    let dispatch: Dispatch
    let targeting: StartTargeting
}

/// Commits starts to users, as many as group commit gathers (or one, `StartDispatchStatements`): each
/// start's users resolved to their push-to-start tokens of its type, its dispatch written with them as
/// its targets. At most five statements however many starts (users by external id, by alias, their
/// tokens, the dispatches, their targets), inside the caller's transaction. Rows travel as one array per
/// column; `ord` is a start's place in the batch.
enum StartBatchStatements {
    /// `lease`: the starts sent now are written leased as it says (`DispatchCommitListener`).
    static func insert(
        _ starts: [PendingStart], lease: CommitLease? = nil, on connection: PostgresConnection
    ) throws -> [CommittedDispatch<StartResolution>] {
        let users = try resolveUsers(starts, on: connection)
        var tokenOrds: [String] = []
        var tokenApps: [String] = []
        var tokenTypes: [String] = []
        var tokenUsers: [String] = []
        for (ord, start) in starts.enumerated() {
            for userID in Set(users[ord].values).sorted() {
                tokenOrds.append(String(ord))
                tokenApps.append(start.dispatch.appID.lowercasedText)
                tokenTypes.append(start.targeting.attributesType)
                tokenUsers.append(String(userID))
            }
        }
        var usersWithTokens = Array(repeating: Set<Int64>(), count: starts.count)
        var targets: (dispatches: [String], tokens: [String], users: [String], devices: [String]) = ([], [], [], [])
        if !tokenOrds.isEmpty {
            for row in try connection.query(tokensStatement, [tokenOrds, tokenApps, tokenTypes, tokenUsers]) {
                let ord: Int = try row.require("ord")
                let userID: Int64 = try row.require("user_id")
                usersWithTokens[ord].insert(userID)
                targets.dispatches.append(starts[ord].dispatch.id.lowercasedText)
                targets.tokens.append(try row.require("push_token"))
                targets.users.append(String(userID))
                targets.devices.append(try row.require("device_id"))
            }
        }
        let written = try connection.query(
            dispatchesStatement,
            [
                starts.map(\.dispatch.id.lowercasedText),
                starts.map(\.dispatch.workspaceID.lowercasedText),
                starts.map(\.dispatch.appID.lowercasedText),
                starts.map(\.dispatch.activityID),
                starts.map { String(decoding: $0.dispatch.payload, as: UTF8.self) },
                starts.map { String($0.dispatch.priority.rawValue) },
                starts.map { PostgresTimestamp.format($0.dispatch.expiresAt) },
                starts.map { $0.dispatch.sendAt.map(PostgresTimestamp.format) ?? "" },
                starts.map(\.targeting.attributesType),
                lease?.worker ?? "",
                lease?.session,
                (lease?.lease ?? .zero).inSeconds,
            ])
        let createdAt: Date = try written.first?.require("created_at") ?? Date()
        var targetCounts: [String: Int] = [:]
        if !targets.dispatches.isEmpty {
            for row in try connection.query(targetsStatement, [targets.dispatches, targets.tokens, targets.users, targets.devices]) {
                targetCounts[try row.require("dispatch_id", as: String.self), default: 0] += 1
            }
        }
        return starts.enumerated().map { ord, start in
            CommittedDispatch(
                resolution: StartResolution(
                    targetCount: targetCounts[start.dispatch.id.lowercasedText] ?? 0,
                    unknownUsers: start.targeting.users.filter { users[ord][$0] == nil },
                    usersWithoutToken: start.targeting.users.filter {
                        users[ord][$0].map { !usersWithTokens[ord].contains($0) } ?? false
                    }),
                createdAt: createdAt)
        }
    }

    /// Each start's users that exist, by how the start named them.
    private static func resolveUsers(_ starts: [PendingStart], on connection: PostgresConnection) throws -> [[UserReference: Int64]] {
        var byExternalID: (ords: [String], workspaces: [String], ids: [String]) = ([], [], [])
        var byAlias: (ords: [String], workspaces: [String], labels: [String], names: [String]) = ([], [], [], [])
        for (ord, start) in starts.enumerated() {
            for user in start.targeting.users {
                switch user {
                case .externalID(let id):
                    byExternalID.ords.append(String(ord))
                    byExternalID.workspaces.append(start.dispatch.workspaceID.lowercasedText)
                    byExternalID.ids.append(id)
                case .alias(let alias):
                    byAlias.ords.append(String(ord))
                    byAlias.workspaces.append(start.dispatch.workspaceID.lowercasedText)
                    byAlias.labels.append(alias.label)
                    byAlias.names.append(alias.name)
                }
            }
        }
        var resolved = Array(repeating: [UserReference: Int64](), count: starts.count)
        if !byExternalID.ords.isEmpty {
            for row in try connection.query(usersStatement, [byExternalID.ords, byExternalID.workspaces, byExternalID.ids]) {
                resolved[try row.require("ord")][.externalID(try row.require("external_id"))] = try row.require("id")
            }
        }
        if !byAlias.ords.isEmpty {
            for row in try connection.query(aliasesStatement, [byAlias.ords, byAlias.workspaces, byAlias.labels, byAlias.names]) {
                let alias = UserAlias(label: try row.require("alias_label"), name: try row.require("alias_name"))
                resolved[try row.require("ord")][.alias(alias)] = try row.require("user_id")
            }
        }
        return resolved
    }

    static let usersStatement = PostgresStatement(
        name: "livegate_batch_start_users",
        sql: """
            SELECT r.ord::int AS ord, u.external_id, u.id
            FROM unnest($1::text[]::int[], $2::text[]::uuid[], $3::text[]) AS r(ord, workspace_id, external_id)
            JOIN users u ON u.workspace_id = r.workspace_id AND u.external_id = r.external_id
            """)

    static let aliasesStatement = PostgresStatement(
        name: "livegate_batch_start_aliases",
        sql: """
            SELECT r.ord::int AS ord, a.alias_label, a.alias_name, a.user_id
            FROM unnest($1::text[]::int[], $2::text[]::uuid[], $3::text[], $4::text[]) AS r(ord, workspace_id, label, name)
            JOIN user_aliases a ON a.workspace_id = r.workspace_id AND a.alias_label = r.label AND a.alias_name = r.name
            """)

    /// Each start's push-to-start tokens of its type, in token order, as a start alone reads them.
    static let tokensStatement = PostgresStatement(
        name: "livegate_batch_start_tokens",
        sql: """
            SELECT r.ord::int AS ord, t.user_id, t.device_id, t.push_token
            FROM unnest($1::text[]::int[], $2::text[]::uuid[], $3::text[], $4::text[]::bigint[])
                 AS r(ord, app_id, attributes_type, user_id)
            JOIN push_to_start_tokens t
              ON t.app_id = r.app_id AND t.attributes_type = r.attributes_type AND t.user_id = r.user_id
            ORDER BY r.ord, t.id
            """)

    /// Sent now, with a lease given (`$10` the worker, '' for none): written as a claim leaves them.
    static let dispatchesStatement = PostgresStatement(
        name: "livegate_batch_start_dispatches",
        sql: """
            INSERT INTO dispatches (id, workspace_id, app_id, event, activity_id, payload, priority, expires_at,
                                    send_at, next_attempt_at, attributes_type,
                                    status, leased_by, leased_by_session, leased_until, attempts)
            SELECT id, workspace_id, app_id, 'start', activity_id, payload, priority, expires_at,
                   nullif(send_at, '')::timestamptz, coalesce(nullif(send_at, '')::timestamptz, now()), attributes_type,
                   CASE WHEN leased THEN 'delivering' ELSE 'pending' END,
                   CASE WHEN leased THEN $10 END, CASE WHEN leased THEN $11::int END,
                   CASE WHEN leased THEN now() + make_interval(secs => $12) END,
                   CASE WHEN leased THEN 1 ELSE 0 END
            FROM (SELECT *, send_at = '' AND $10::text <> '' AS leased
                  FROM unnest($1::text[]::uuid[], $2::text[]::uuid[], $3::text[]::uuid[], $4::text[], $5::text[],
                              $6::text[]::smallint[], $7::text[]::timestamptz[], $8::text[], $9::text[])
                       WITH ORDINALITY AS b(id, workspace_id, app_id, activity_id, payload, priority, expires_at,
                                            send_at, attributes_type, ord)) b
            ORDER BY ord
            RETURNING created_at
            """)

    /// The targets in the order given (each start's in token order); a token twice in one start is
    /// one target.
    static let targetsStatement = PostgresStatement(
        name: "livegate_batch_start_targets_insert",
        sql: """
            INSERT INTO dispatch_targets (dispatch_id, push_token, user_id, device_id)
            SELECT dispatch_id, token, user_id, device_id
            FROM unnest($1::text[]::uuid[], $2::text[], $3::text[]::bigint[], $4::text[])
                 WITH ORDINALITY AS t(dispatch_id, token, user_id, device_id, ord)
            ORDER BY ord
            ON CONFLICT DO NOTHING
            RETURNING dispatch_id::text
            """)
}
