import PostgresClient
import TestSupport
import Testing

@Suite("Connections notice a vanished server: TCP keepalives and a write timeout", .requiresPostgres)
struct PostgresDeadPeerSettingsTests {
    @Test func everyConnectionSetsKeepalivesAndAWriteTimeoutByDefault() async throws {
        try await TestDatabase.with(migrated: false) { database in
            let pool = PostgresConnectionPool(
                configuration: .init(connectionString: database.connectionString, callTimeout: TestPostgres.callTimeout))
            let settings = try await pool.withConnection { connection in
                ["keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count", "tcp_user_timeout"]
                    .map { connection.setting($0) }
            }
            await pool.close()
            #expect(settings == ["1", "5", "1", "3", "10000"])
        }
    }

    /// The connection string is the operator's: what it says wins over the defaults.
    @Test func theConnectionStringWins() async throws {
        try await TestDatabase.with(migrated: false) { database in
            let pool = PostgresConnectionPool(
                configuration: .init(connectionString: database.connectionString + " keepalives_idle=30 tcp_user_timeout=0"))
            let (idle, timeout, password) = try await pool.withConnection { connection in
                (connection.setting("keepalives_idle"), connection.setting("tcp_user_timeout"), connection.setting("password"))
            }
            await pool.close()
            #expect(idle == "30")
            #expect(timeout == "0")
            #expect(password == nil, "a password is never read back")
        }
    }
}
