import Foundation
import PostgresClient
import TestSupport
import Testing

/// The tests' fault proxy in front of PostgreSQL: what passes, and what a faulted statement meets, as the
/// pool sees it.
@Suite("The PostgreSQL fault proxy", .requiresPostgres)
struct PostgresFaultProxyTests {
    static let counted = PostgresStatement(name: "proxy_counted", sql: "SELECT count(*)::int AS n FROM ledger WHERE n > $1")

    /// Runs `counted`, prepared on the connection the first time.
    static func count(_ pool: PostgresConnectionPool) async throws -> Int {
        try await pool.withConnection { try $0.query(counted, [0]) }[0].require("n")
    }

    private func withProxiedPool(_ body: (PostgresFaultProxy, PostgresConnectionPool) async throws -> Void) async throws {
        try await TestDatabase.with(migrated: false) { database in
            try await database.pool.query("CREATE TABLE ledger (n int)")
            let proxy = try PostgresFaultProxy.inFrontOfTestPostgres()
            defer { proxy.close() }
            let pool = PostgresConnectionPool(
                configuration: .init(
                    connectionString: proxy.connectionString(through: database.connectionString), maximumConnections: 1))
            do {
                try await body(proxy, pool)
                await pool.close()
            } catch {
                await pool.close()
                throw error
            }
        }
    }

    @Test func statementsAndTransactionsPassUnchanged() async throws {
        try await withProxiedPool { proxy, pool async throws in
            try await pool.transaction { connection in
                try connection.query("INSERT INTO ledger VALUES ($1), ($2)", [1, 2])
            }
            for _ in 0..<3 {
                #expect(try await Self.count(pool) == 2)
            }
            #expect(proxy.statements(containing: "INSERT INTO ledger") == 1)
            // Prepared once, run three times: counted at each run.
            #expect(proxy.statements(containing: "FROM ledger WHERE n >") == 3)
        }
    }

    @Test func aFailedStatementCarriesItsSQLStateAndTheConnectionServesTheNext() async throws {
        try await withProxiedPool { proxy, pool async throws in
            proxy.inject(.fail(sqlState: "XX000", message: "injected: internal error"), whenStatementContains: "FROM ledger WHERE n >")
            let error = await #expect(throws: PostgresError.self) { try await Self.count(pool) }
            #expect(error?.code == .statementFailed)
            #expect(error?.sqlState == "XX000")
            #expect(try await Self.count(pool) == 0)
        }
    }

    @Test func aFailureInsideATransactionRollsItBack() async throws {
        try await withProxiedPool { proxy, pool async throws in
            proxy.inject(.fail(sqlState: "40001", message: "injected: serialization failure"), whenStatementContains: "VALUES (2)")
            await #expect(throws: PostgresError.self) {
                try await pool.transaction { connection in
                    try connection.query("INSERT INTO ledger VALUES (1)")
                    try connection.query("INSERT INTO ledger VALUES (2)")
                }
            }
            #expect(try await pool.query("SELECT count(*)::int AS n FROM ledger")[0].require("n", as: Int.self) == 0)
        }
    }

    @Test func aBrokenConnectionIsLostAndTheNextStatementGetsANewOne() async throws {
        try await withProxiedPool { proxy, pool async throws in
            #expect(try await pool.query("SELECT 1 AS one").count == 1)
            // The connection breaks once the statement was prepared on it, as it is run: it may have run, so
            // the pool does not try it again on another.
            proxy.inject(.breakConnection, whenStatementContains: "FROM ledger WHERE n >")
            let error = await #expect(throws: PostgresError.self) { try await Self.count(pool) }
            #expect(error?.isDatabaseUnavailable == true, "\(String(describing: error))")
            #expect(try await Self.count(pool) == 0)
        }
    }

    @Test func aStalledStatementAnswersLateAndRight() async throws {
        try await withProxiedPool { proxy, pool async throws in
            try await pool.query("INSERT INTO ledger VALUES ($1)", [1])
            proxy.inject(.stall(.milliseconds(800)), whenStatementContains: "FROM ledger WHERE n >")
            let started = ContinuousClock.now
            #expect(try await Self.count(pool) == 1)
            #expect(ContinuousClock.now - started >= .milliseconds(800), "it waited out the stall")
            let again = ContinuousClock.now
            #expect(try await Self.count(pool) == 1)
            #expect(ContinuousClock.now - again < .milliseconds(800), "only the one statement stalled")
        }
    }
}
