import LiveGateDomain
import PostgresClient

extension PostgresTenancyRepository {
    package func appIdentifiers(limit: Int) async throws -> Set<String>? {
        let rows = try await pool.query("SELECT app_identifier FROM apps LIMIT $1", [limit + 1])
        guard rows.count <= limit else { return nil }
        return Set(try rows.map { try $0.require("app_identifier", as: String.self) })
    }
}
