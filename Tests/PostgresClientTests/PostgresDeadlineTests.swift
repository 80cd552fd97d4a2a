import Foundation
import PostgresClient
import TestSupport
import Testing

/// Every pool call has a deadline the client enforces itself: a server that hangs keeps its sockets open
/// and answers nothing (the fault proxy's `freeze`), and a call must still end, in time, without
/// taking the pool down with it.
@Suite("PostgreSQL call deadlines", .requiresPostgres)
struct PostgresDeadlineTests {
    static let backend = PostgresStatement(name: "deadline_backend", sql: "SELECT pg_backend_pid() AS pid")

    /// A call whose deadline is not under test: long enough for any load.
    static let setUp = PostgresCallTimeout.limit(.seconds(60))

    static func backendPID(_ pool: PostgresConnectionPool, timeout: PostgresCallTimeout = .configured) async throws -> Int {
        try await pool.withConnection(timeout: timeout) { try $0.query(backend)[0].require("pid") }
    }

    private func withProxiedPool(
        connections: Int, callTimeout: Duration,
        _ body: (PostgresFaultProxy, PostgresConnectionPool, TestDatabase) async throws -> Void
    ) async throws {
        try await TestDatabase.with(migrated: false) { database in
            let proxy = try PostgresFaultProxy.inFrontOfTestPostgres()
            defer { proxy.close() }
            let pool = PostgresConnectionPool(
                configuration: .init(
                    connectionString: proxy.connectionString(through: database.connectionString),
                    maximumConnections: connections, connectTimeoutSeconds: 1, callTimeout: callTimeout,
                    applicationName: "deadline-test"))
            do {
                try await body(proxy, pool, database)
                proxy.thaw()
                await pool.close()
            } catch {
                proxy.thaw()
                await pool.close()
                throw error
            }
        }
    }

    /// What `body` threw, and how long it took to.
    private func failure(_ body: () async throws -> Void) async -> (error: PostgresError?, took: Duration) {
        let started = ContinuousClock.now
        do {
            try await body()
            return (nil, ContinuousClock.now - started)
        } catch {
            return (error as? PostgresError, ContinuousClock.now - started)
        }
    }

    @Test func aStatementToAFrozenServerFailsAtItsDeadlineAndTheNextCallReconnects() async throws {
        try await withProxiedPool(connections: 2, callTimeout: .milliseconds(700)) { proxy, pool, _ in
            let before = try await Self.backendPID(pool, timeout: Self.setUp)
            proxy.freeze()
            let frozen = await failure { _ = try await Self.backendPID(pool) }
            #expect(frozen.error?.code == .timedOut, "\(String(describing: frozen.error))")
            #expect(frozen.error?.isDatabaseUnavailable == true, "the API answers it with a 503")
            #expect(frozen.took >= .milliseconds(650) && frozen.took < .milliseconds(1_700), "\(frozen.took)")

            proxy.thaw()
            let after = try await Self.backendPID(pool, timeout: Self.setUp)
            #expect(after != before, "the connection that missed its deadline was dropped, not handed out again")
        }
    }

    @Test func hungConnectionsNeverHoldTheCallersPastTheirDeadlines() async throws {
        try await withProxiedPool(connections: 2, callTimeout: .milliseconds(800)) { proxy, pool, _ in
            // Two open connections, both idle.
            async let first = Self.backendPID(pool, timeout: Self.setUp)
            async let second = Self.backendPID(pool, timeout: Self.setUp)
            _ = try await (first, second)
            proxy.freeze()
            // Eight callers on two slots: two meet the frozen connections, the rest wait for a slot or for a
            // connection to the frozen server to open (libpq's connect timeout is 2 s at least); none may
            // wait past its own deadline.
            let started = ContinuousClock.now
            let outcomes = await withTaskGroup(of: PostgresError.Code?.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        do {
                            _ = try await Self.backendPID(pool)
                            return nil
                        } catch {
                            return (error as? PostgresError)?.code
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let took = ContinuousClock.now - started
            #expect(outcomes.allSatisfy { $0 == .timedOut }, "\(outcomes)")
            #expect(took < .milliseconds(1_800), "every caller had its answer within a second of its deadline: \(took)")

            proxy.thaw()
            _ = try await Self.backendPID(pool, timeout: Self.setUp)
            async let third = Self.backendPID(pool, timeout: Self.setUp)
            async let fourth = Self.backendPID(pool, timeout: Self.setUp)
            _ = try await (third, fourth)
        }
    }

    @Test func aCallerThatWaitedOutItsDeadlineLeavesTheHealthyConnectionAlone() async throws {
        try await withProxiedPool(connections: 1, callTimeout: .milliseconds(500)) { _, pool, _ in
            let pid = try await Self.backendPID(pool, timeout: Self.setUp)
            let slowStarted = AsyncStream<Void>.makeStream()
            async let slow: Void = pool.withConnection(timeout: Self.setUp) { connection in
                slowStarted.continuation.yield()
                _ = try connection.query("SELECT pg_sleep(2)")
            }
            for await _ in slowStarted.stream { break }
            let waited = await failure { _ = try await Self.backendPID(pool) }
            #expect(waited.error?.code == .timedOut, "no connection was free within its deadline")
            #expect(waited.took < .milliseconds(1_500), "\(waited.took)")
            try await slow
            #expect(try await Self.backendPID(pool, timeout: Self.setUp) == pid, "the busy connection was not the waiter's to drop")
        }
    }

    @Test func aServerThatTurnedReadOnlyLosesItsConnections() async throws {
        try await withProxiedPool(connections: 2, callTimeout: .seconds(5)) { proxy, pool, _ in
            let readOnly = PostgresFaultProxy.Fault.fail(sqlState: "25006", message: "cannot execute INSERT in a read-only transaction")
            let pid = try await Self.backendPID(pool, timeout: Self.setUp)
            proxy.inject(readOnly, whenStatementContains: "demoted", times: 2)
            let demoted = await failure { _ = try await pool.query("SELECT 'demoted'", timeout: Self.setUp) }
            #expect(demoted.error?.sqlState == "25006")
            #expect(demoted.error?.isDatabaseUnavailable == true, "a demoted primary is a database to wait for, a 503")
            #expect(proxy.statements(containing: "demoted") == 2, "a first statement refused so is tried once more, anew")
            #expect(try await Self.backendPID(pool, timeout: Self.setUp) != pid, "the next call found the primary anew")

            // Refused once: the call's one retry, on a new connection, is answered.
            proxy.inject(readOnly, whenStatementContains: "moved", times: 1)
            #expect(try await pool.query("SELECT 'moved' AS word", timeout: Self.setUp)[0].require("word", as: String.self) == "moved")
        }
    }

    @Test func unlimitedCallsWaitAsLongAsTheyTake() async throws {
        try await withProxiedPool(connections: 1, callTimeout: .milliseconds(200)) { _, pool, _ in
            try await pool.withConnection(timeout: .unlimited) { connection in
                _ = try connection.query("SELECT pg_sleep(0.5)")
            }
            let limited = await failure {
                try await pool.withConnection { connection in _ = try connection.query("SELECT pg_sleep(0.5)") }
            }
            #expect(limited.error?.code == .timedOut)
        }
    }
}
