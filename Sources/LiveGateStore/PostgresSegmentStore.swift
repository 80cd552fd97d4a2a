import APNsCore
import Foundation
import LiveGateDomain
import PostgresClient

/// Segments in `segments`, each workspace's by creation (`segments_workspace_idx`).
package struct PostgresSegmentStore: SegmentStore {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) {
        self.pool = pool
    }

    package func create(name: String, audience: JSONValue, workspaceID: UUID) async throws -> Segment {
        let rows = try await pool.query(
            """
            INSERT INTO segments (id, workspace_id, name, audience) VALUES ($1, $2, $3, $4)
            RETURNING \(Self.columns)
            """,
            [UUID(), workspaceID, name, audience.description])
        return try Self.segment(rows.first!)
    }

    package func list(workspaceID: UUID, page: Int, pageSize: Int, newestFirst: Bool) async throws -> [Segment] {
        let direction = newestFirst ? "DESC" : "ASC"
        let rows = try await pool.query(
            """
            SELECT \(Self.columns) FROM segments WHERE workspace_id = $1
            ORDER BY created_at \(direction), id \(direction) LIMIT $2 OFFSET $3
            """,
            [workspaceID, pageSize, page * pageSize])
        return try rows.map(Self.segment)
    }

    package func segment(id: UUID, workspaceID: UUID) async throws -> Segment? {
        let rows = try await pool.query(
            "SELECT \(Self.columns) FROM segments WHERE id = $1 AND workspace_id = $2", [id, workspaceID])
        return try rows.first.map(Self.segment)
    }

    package func delete(id: UUID, workspaceID: UUID) async throws -> Bool {
        try await pool.query("DELETE FROM segments WHERE id = $1 AND workspace_id = $2", [id, workspaceID])
            .affectedRowCount > 0
    }

    package func invalidRegularExpressions(_ patterns: [String]) async throws -> [String] {
        var invalid: [String] = []
        for pattern in patterns {
            do {
                _ = try await pool.query("SELECT '' ~ $1 AS matched", [pattern])
            } catch let error as PostgresError where error.sqlState == "2201B" {
                invalid.append(pattern)
            }
        }
        return invalid
    }

    static let columns = "id, name, audience, created_at, updated_at"

    static func segment(_ row: PostgresRow) throws -> Segment {
        let text: String = try row.require("audience")
        guard let audience = try? JSONValue.parse(text) else {
            throw PostgresError(code: .decodingFailed, message: "a segment's audience is not JSON")
        }
        return Segment(
            id: try row.require("id"), name: try row.require("name"), audience: audience,
            createdAt: try row.require("created_at"), updatedAt: try row.require("updated_at"))
    }
}
