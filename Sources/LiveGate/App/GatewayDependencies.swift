import PostgresClient

/// What the gateway's routes need, behind protocols so tests can assemble the same app.
public struct GatewayDependencies: Sendable {
    public var pool: PostgresConnectionPool
    public var tenancy: any TenancyRepository
    public var apiKeys: any APIKeyRepository

    public init(pool: PostgresConnectionPool, tenancy: any TenancyRepository, apiKeys: any APIKeyRepository) {
        self.pool = pool
        self.tenancy = tenancy
        self.apiKeys = apiKeys
    }

    /// The PostgreSQL-backed repositories over one pool.
    public static func postgres(pool: PostgresConnectionPool) -> GatewayDependencies {
        GatewayDependencies(
            pool: pool, tenancy: PostgresTenancyRepository(pool: pool), apiKeys: PostgresAPIKeyRepository(pool: pool))
    }
}
