import APNsCore
import Foundation
import LiveGateDomain
import PostgresClient
import UUIDText

package struct PostgresTenancyRepository: TenancyRepository {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) {
        self.pool = pool
    }

    package func createWorkspace(name: String, rateLimitPerHour: Int) async throws -> Workspace {
        let rows = try await mapConstraintErrors {
            try await pool.query(
                "INSERT INTO workspaces (name, rate_limit_per_hour) VALUES ($1, $2) RETURNING \(Self.workspaceColumns)",
                [name, rateLimitPerHour])
        }
        return try Self.workspace(from: rows[0])
    }

    package func workspace(id: UUID) async throws -> Workspace? {
        let rows = try await pool.query("SELECT \(Self.workspaceColumns) FROM workspaces WHERE id = $1", [id])
        return try rows.first.map(Self.workspace(from:))
    }

    package func setRateLimit(workspaceID: UUID, rateLimitPerHour: Int) async throws -> Bool {
        let rows = try await mapConstraintErrors {
            try await pool.query(
                "UPDATE workspaces SET rate_limit_per_hour = $2 WHERE id = $1", [workspaceID, rateLimitPerHour])
        }
        return rows.affectedRowCount == 1
    }

    package func setUsersTrackRateLimit(workspaceID: UUID, perHour limit: Int) async throws -> Bool {
        let rows = try await mapConstraintErrors {
            try await pool.query("UPDATE workspaces SET users_track_rate_limit_per_hour = $2 WHERE id = $1", [workspaceID, limit])
        }
        return rows.affectedRowCount == 1
    }

    package func createApp(
        workspaceID: UUID, name: String, identifier: String?, bundleID: String, endpoint: APNsEndpoint,
        channelsEndpointURL: String?, credentials: APNsCredentials?
    ) async throws -> App {
        try Self.checkChannelsEndpoint(channelsEndpointURL, of: endpoint)
        let identifier = identifier ?? UUID().lowercasedText
        let rows = try await mapConstraintErrors {
            try await pool.query(
                """
                INSERT INTO apps (workspace_id, app_identifier, name, bundle_id, apns_endpoint,
                                  apns_team_id, apns_key_id, apns_private_key, apns_channels_endpoint)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
                RETURNING \(Self.appColumns)
                """,
                [
                    workspaceID, identifier, name, bundleID, endpoint.rawValue,
                    credentials?.teamID, credentials?.keyID, credentials?.privateKeyPEM, channelsEndpointURL,
                ])
        }
        return try Self.app(from: rows[0])
    }

    package func app(identifier: String) async throws -> App? {
        let rows = try await pool.query("SELECT \(Self.appColumns) FROM apps WHERE app_identifier = $1", [identifier])
        return try rows.first.map(Self.app(from:))
    }

    package func app(id: UUID) async throws -> App? {
        let rows = try await pool.query("SELECT \(Self.appColumns) FROM apps WHERE id = $1", [id])
        return try rows.first.map(Self.app(from:))
    }

    package func setChannelsEndpoint(appIdentifier: String, url: String?) async throws -> App? {
        guard let app = try await app(identifier: appIdentifier) else { return nil }
        try Self.checkChannelsEndpoint(url, of: app.endpoint)
        let rows = try await pool.query(
            "UPDATE apps SET apns_channels_endpoint = $2 WHERE id = $1 RETURNING \(Self.appColumns)", [app.id, url])
        return try rows.first.map(Self.app(from:))
    }

    package func setPriorityBudget(appIdentifier: String, budget: PriorityBudget?) async throws -> App? {
        let rows = try await pool.query(
            """
            UPDATE apps SET priority_budget_per_hour = $2, frequent_priority_budget_per_hour = $3
            WHERE app_identifier = $1 RETURNING \(Self.appColumns)
            """,
            [appIdentifier, budget?.perHour, budget?.frequentPerHour])
        return try rows.first.map(Self.app(from:))
    }

    /// A channels endpoint must be a URL the endpoint can be managed at (`APNsEndpoint.managed(at:)`).
    static func checkChannelsEndpoint(_ url: String?, of endpoint: APNsEndpoint) throws {
        guard let url else { return }
        guard endpoint.managed(at: url) != nil else {
            throw TenancyError(.invalidValue, "the channels endpoint must be an http:// or https:// URL with a host and no path")
        }
    }

    static let workspaceColumns = "id, name, rate_limit_per_hour, users_track_rate_limit_per_hour, created_at"
    static let appColumns = """
        id, workspace_id, app_identifier, name, bundle_id, apns_endpoint, apns_team_id, apns_key_id,
        apns_private_key, apns_channels_endpoint, sdk_auth_public_keys, sdk_auth_enforced, created_at,
        priority_budget_per_hour, frequent_priority_budget_per_hour
        """

    static func workspace(from row: PostgresRow) throws -> Workspace {
        Workspace(
            id: try row.require("id"), name: try row.require("name"),
            rateLimitPerHour: try row.require("rate_limit_per_hour"),
            usersTrackRateLimitPerHour: try row.require("users_track_rate_limit_per_hour"), createdAt: try row.require("created_at"))
    }

    static func app(from row: PostgresRow) throws -> App {
        let endpointText: String = try row.require("apns_endpoint")
        guard let endpoint = APNsEndpoint(rawValue: endpointText) else {
            throw TenancyError(.invalidValue, "stored APNs endpoint is not valid")
        }
        var credentials: APNsCredentials?
        if let teamID: String = try row.decode("apns_team_id"), let keyID: String = try row.decode("apns_key_id"),
            let pem: String = try row.decode("apns_private_key")
        {
            credentials = APNsCredentials(teamID: teamID, keyID: keyID, privateKeyPEM: pem)
        }
        return App(
            id: try row.require("id"), workspaceID: try row.require("workspace_id"),
            identifier: try row.require("app_identifier"), name: try row.require("name"),
            bundleID: try row.require("bundle_id"), endpoint: endpoint,
            channelsEndpointURL: try row.decode("apns_channels_endpoint"), credentials: credentials,
            sdkAuthentication: SDKAuthentication(
                enforced: try row.require("sdk_auth_enforced"), publicKeyPEMs: try row.require("sdk_auth_public_keys")),
            createdAt: try row.require("created_at"), priorityBudget: try priorityBudget(from: row))
    }

    static func priorityBudget(from row: PostgresRow) throws -> PriorityBudget? {
        guard let perHour: Int = try row.decode("priority_budget_per_hour") else { return nil }
        return PriorityBudget(perHour: perHour, frequentPerHour: try row.decode("frequent_priority_budget_per_hour"))
    }
}

/// Turns the constraint errors a caller can cause into `TenancyError`s that say what to fix.
func mapConstraintErrors<Result>(_ body: () async throws -> Result) async throws -> Result {
    do {
        return try await body()
    } catch let error as PostgresError {
        switch error.sqlState {
        case "23503": throw TenancyError(.workspaceNotFound, "no such workspace")
        case "23505": throw TenancyError(.appIdentifierTaken, "an app with that identifier already exists")
        case "23514", "22001", "22P02": throw TenancyError(.invalidValue, "a value is out of range: \(error.message)")
        default: throw error
        }
    }
}
