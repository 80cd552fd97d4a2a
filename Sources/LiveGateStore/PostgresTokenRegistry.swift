import APNsCore
import Foundation
import LiveGateDomain
import PostgresClient

/// Tokens in `activity_tokens` and `push_to_start_tokens`; users and aliases made on first sight.
package struct PostgresTokenRegistry: TokenRegistry {
    let pool: PostgresConnectionPool
    /// Who subscribes to `token.*` events: written with the change they describe.
    let events: (any EventInterest)?

    package init(pool: PostgresConnectionPool, events: (any EventInterest)? = nil) {
        self.pool = pool
        self.events = events
    }

    /// Which token events of the app anyone subscribes to.
    private func wanted(_ app: App) -> Set<EventType> {
        guard let events else { return [] }
        return Set(
            [EventType.tokenRegistered, .tokenRotated, .tokenRemoved].filter {
                events.wants($0, workspaceID: app.workspaceID, appID: app.id)
            })
    }

    @discardableResult
    package func apply(_ registration: TokenRegistration, app: App) async throws -> ConfirmedStarts {
        let (table, scopeColumn, scope) = Self.target(of: registration.kind)
        let wanted = wanted(app)
        guard let token = registration.token else {
            // Removing needs no user: the registration is the device's, whoever it belonged to.
            let removal = "DELETE FROM \(table) WHERE app_id = $1 AND \(scopeColumn) = $2 AND device_id = $3 RETURNING push_token"
            guard wanted.contains(.tokenRemoved) else {
                try await pool.query(removal, [app.id, scope, registration.deviceID])
                return ConfirmedStarts()
            }
            try await pool.transaction { connection in
                for row in try connection.query(removal, [app.id, scope, registration.deviceID]) {
                    let event = OutgoingEvent.token(
                        .tokenRemoved, kind: registration.kind, app: app, deviceID: registration.deviceID,
                        externalID: registration.externalID, token: try row.require("push_token"), reason: "unregistered")
                    try EventStatement.insert([event], on: connection)
                }
            }
            return ConfirmedStarts()
        }
        return try await pool.transaction { connection in
            if !wanted.isEmpty {
                try Self.writeTokenEvent(registration, token: token, app: app, wanted: wanted, on: connection)
            }
            let userID = try UserResolution.findOrCreate(
                externalID: registration.externalID, alias: registration.alias, workspaceID: app.workspaceID,
                on: connection)
            guard case .activity(let tag) = registration.kind else {
                try Self.upsert(registration, token: token, userID: userID, app: app, on: connection)
                return ConfirmedStarts()
            }
            // The started activity reports its update token under the start's activity id: it is on the device.
            let confirmed = try StartConfirmationStatements.confirm(
                appID: app.id, activityID: tag, deviceID: registration.deviceID, events: events, app: app, on: connection)
            try Self.upsertUpdateToken(
                registration, tag: tag, startedAs: confirmed.attributesType, token: token,
                userID: userID, app: app, on: connection)
            return confirmed
        }
    }

    /// `token.registered` when the device had no token here, `token.rotated` when it had another: read
    /// (and locked) before the upsert, only while someone subscribes.
    private static func writeTokenEvent(
        _ registration: TokenRegistration, token: PushToken, app: App, wanted: Set<EventType>, on connection: PostgresConnection
    ) throws {
        let (table, scopeColumn, scope) = Self.target(of: registration.kind)
        let previous: String? = try connection.query(
            "SELECT push_token FROM \(table) WHERE app_id = $1 AND \(scopeColumn) = $2 AND device_id = $3 FOR UPDATE",
            [app.id, scope, registration.deviceID]
        ).first?.require("push_token")
        let type: EventType
        switch previous {
        case nil: type = .tokenRegistered
        case token.hex?: return
        default: type = .tokenRotated
        }
        guard wanted.contains(type) else { return }
        let event = OutgoingEvent.token(
            type, kind: registration.kind, app: app, deviceID: registration.deviceID, externalID: registration.externalID,
            token: token.hex, previousToken: previous)
        try EventStatement.insert([event], on: connection)
    }

    /// A device keeps its user when a later call does not name one (the SDK may not know it yet), and
    /// belongs to none once a call says no user is signed in (`TokenRegistration.User.signedOut`).
    private static func upsert(
        _ registration: TokenRegistration, token: PushToken, userID: Int64?, app: App, on connection: PostgresConnection
    ) throws {
        let (table, scopeColumn, scope) = Self.target(of: registration.kind)
        let user = Self.newUser(signedOut: "$6")
        try connection.query(
            """
            INSERT INTO \(table) AS t (app_id, \(scopeColumn), device_id, user_id, push_token)
            VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (app_id, \(scopeColumn), device_id) DO UPDATE
                SET push_token = EXCLUDED.push_token,
                    user_id = \(user),
                    updated_at = now()
                WHERE (t.push_token, t.user_id) IS DISTINCT FROM (EXCLUDED.push_token, \(user))
            """,
            [app.id, scope, registration.deviceID, userID, token.hex, registration.user == .signedOut])
    }

    /// As `upsert`, and the activity's type: the one the call names, else the one the row has, else the
    /// one the start that created the activity named (`startedAs`): its updates are checked against it.
    private static func upsertUpdateToken(
        _ registration: TokenRegistration, tag: String, startedAs: String?, token: PushToken, userID: Int64?, app: App,
        on connection: PostgresConnection
    ) throws {
        let user = Self.newUser(signedOut: "$8")
        try connection.query(
            """
            INSERT INTO activity_tokens AS t (app_id, activity_id, device_id, user_id, push_token, attributes_type)
            VALUES ($1, $2, $3, $4, $5, COALESCE($6, $7))
            ON CONFLICT (app_id, activity_id, device_id) DO UPDATE
                SET push_token = EXCLUDED.push_token,
                    user_id = \(user),
                    attributes_type = COALESCE($6, t.attributes_type, $7),
                    updated_at = now()\(Self.lastPushReset)
                WHERE (t.push_token, t.user_id, t.attributes_type) IS DISTINCT FROM
                      (EXCLUDED.push_token, \(user), COALESCE($6, t.attributes_type, $7))
            """,
            [
                app.id, tag, registration.deviceID, userID, token.hex, registration.attributesType, startedAs,
                registration.user == .signedOut,
            ])
    }

    /// The row's user after an upsert: none when the call says no user is signed in (`signedOut`, the
    /// boolean parameter it names), the call's user when it names one, else the one the row has.
    static func newUser(signedOut parameter: String) -> String {
        "CASE WHEN \(parameter)::boolean THEN NULL ELSE COALESCE(EXCLUDED.user_id, t.user_id) END"
    }

    /// A new update token has been sent nothing yet: the row's last push was the old token's, and so
    /// were the pushed pages before now (`token_since`).
    static var lastPushReset: String {
        ["last_dispatch_id", "last_apns_status", "last_pushed_at"].map {
            ",\n    \($0) = CASE WHEN t.push_token = EXCLUDED.push_token THEN t.\($0) END"
        }.joined() + ",\n    token_since = CASE WHEN t.push_token = EXCLUDED.push_token THEN t.token_since ELSE now() END"
    }

    /// Table and column names are fixed strings chosen here, never input.
    static func target(of kind: TokenRegistration.Kind) -> (table: String, scopeColumn: String, scope: String) {
        switch kind {
        case .activity(let tag): ("activity_tokens", "activity_id", tag)
        case .pushToStart(let type): ("push_to_start_tokens", "attributes_type", type)
        }
    }
}
