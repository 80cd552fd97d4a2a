import Foundation
import LiveGateDomain
import PostgresClient

package struct PostgresAPIKeyRepository: APIKeyRepository {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) {
        self.pool = pool
    }

    package func create(
        workspaceID: UUID, name: String, secret: APIKeySecret, permissions: Set<APIKeyPermission>,
        allowedNetworks: [IPNetwork]
    ) async throws -> APIKey {
        let rows = try await mapConstraintErrors {
            try await pool.query(
                """
                INSERT INTO api_keys (workspace_id, name, key_hash, key_hint, permissions, allowed_ips)
                VALUES ($1, $2, $3, $4, $5::text[], $6::cidr[])
                RETURNING \(Self.columns)
                """,
                [
                    workspaceID, name, Data(secret.hash), secret.hint,
                    permissions.map(\.rawValue).sorted(), allowedNetworks.map(\.description),
                ])
        }
        return try Self.key(from: rows[0])
    }

    package func find(hash: [UInt8]) async throws -> (key: APIKey, storedHash: [UInt8])? {
        let rows = try await pool.query(
            "SELECT \(Self.columns), key_hash FROM api_keys WHERE key_hash = $1", [Data(hash)])
        guard let row = rows.first else { return nil }
        let storedHash: Data = try row.require("key_hash")
        return (try Self.key(from: row), [UInt8](storedHash))
    }

    package func list(workspaceID: UUID) async throws -> [APIKey] {
        let rows = try await pool.query(
            "SELECT \(Self.columns) FROM api_keys WHERE workspace_id = $1 ORDER BY created_at, id", [workspaceID])
        return try rows.map(Self.key(from:))
    }

    package func revoke(id: UUID) async throws -> Bool {
        let rows = try await pool.query(
            "UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1", [id])
        return rows.affectedRowCount == 1
    }

    static let columns = "id, workspace_id, name, key_hint, permissions, allowed_ips::text[] AS allowed_ips, created_at, revoked_at"

    static func key(from row: PostgresRow) throws -> APIKey {
        let permissionNames: [String] = try row.require("permissions")
        let networkTexts: [String] = try row.require("allowed_ips")
        return APIKey(
            id: try row.require("id"), workspaceID: try row.require("workspace_id"), name: try row.require("name"),
            hint: try row.require("key_hint"),
            permissions: Set(permissionNames.compactMap(APIKeyPermission.init(rawValue:))),
            allowedNetworks: networkTexts.compactMap(IPNetwork.init),
            createdAt: try row.require("created_at"), revokedAt: try row.decode("revoked_at"))
    }
}
