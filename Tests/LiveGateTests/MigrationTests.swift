import APNsClient
import APNsCore
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import Logging
import PostgresClient
import TestSupport
import Testing

@Suite("Schema migrations", .requiresPostgres)
struct MigrationTests {
    @Test func emptyDatabaseGetsEveryMigrationThenReRunIsANoOp() async throws {
        try await TestDatabase.with(migrated: false) { database in
            let migrator = Migrator(pool: database.pool, logger: Logger(label: "test"))
            let applied = try await migrator.migrate()
            #expect(applied.first == 1)
            #expect(applied == applied.sorted())
            let tables = try await database.pool.query(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1")
            let names = Set(try tables.map { try $0.require("table_name", as: String.self) })
            #expect(names.isSuperset(of: ["schema_migrations", "workspaces", "apps", "users", "user_aliases", "api_keys"]))

            let recorded = try await database.pool.query("SELECT version FROM schema_migrations ORDER BY version")
            #expect(try recorded.map { try $0.require("version", as: Int.self) } == applied)

            #expect(try await migrator.migrate() == [])
            let again = try await database.pool.query("SELECT count(*)::int AS n FROM schema_migrations")
            #expect(try again[0].require("n", as: Int.self) == applied.count)
        }
    }

    @Test func concurrentStartsApplyEachMigrationOnce() async throws {
        try await TestDatabase.with(migrated: false) { database in
            let results = try await withThrowingTaskGroup(of: [Int].self) { group in
                for _ in 0..<3 {
                    group.addTask {
                        // Separate pools: separate sessions, as separate gateway instances would have.
                        let pool = PostgresConnectionPool(
                            configuration: .init(connectionString: database.connectionString, maximumConnections: 1))
                        do {
                            let applied = try await Migrator(pool: pool, logger: Logger(label: "test")).migrate()
                            await pool.close()
                            return applied
                        } catch {
                            await pool.close()
                            throw error
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.filter { !$0.isEmpty }.count == 1)
            #expect(results.flatMap { $0 }.sorted() == results.first { !$0.isEmpty }!)
        }
    }

    /// Migration 012 says 002's token rule without its slow regular expression: the same tokens pass.
    @Test(arguments: [
        ("ab", true), (String(repeating: "0f", count: 32), true), (String(repeating: "ab", count: 200), true),
        ("", false), ("a", false), ("abc", false), ("AB", false), ("0g", false), ("ab\n", false),
        (String(repeating: "ab", count: 201), false),
    ])
    func tokenTablesTakeOneTo200PairsOfLowerCaseHex(token: String, accepted: Bool) async throws {
        try await TestDatabase.with { database in
            let app = try await database.makeApp(in: try await database.makeWorkspace())
            for statement in [
                "INSERT INTO activity_tokens (app_id, activity_id, device_id, push_token) VALUES ($1, 'tag', 'device', $2)",
                "INSERT INTO push_to_start_tokens (app_id, attributes_type, device_id, push_token) VALUES ($1, 'Type', 'device', $2)",
            ] {
                do {
                    try await database.pool.query(statement, [app.id, token])
                    #expect(accepted, "\(statement) took \(token.debugDescription)")
                } catch let error as PostgresError {
                    #expect(!accepted && error.sqlState == "23514", "\(error)")
                }
            }
        }
    }

    /// The lines of the plan PostgreSQL makes for `statement` with sequential scans off: small test
    /// tables would be read whole anyway, and the question is whether an index can serve.
    static func indexPlan(
        of statement: String, _ parameters: [(any PostgresBindable)?], in database: TestDatabase
    ) async throws -> [String] {
        try await database.pool.withConnection { connection in
            try connection.query("SET enable_seqscan = off")
            defer { _ = try? connection.query("RESET enable_seqscan") }
            return try connection.query("EXPLAIN (COSTS OFF) " + statement, parameters)
                .map { try $0.require("QUERY PLAN", as: String.self) }
        }
    }

    /// Migration 013: removing the tokens APNs called dead looks them up by value through an index, not
    /// by reading every token of the app (1.8 s a page at a million devices without it).
    @Test(arguments: ["activity_tokens", "push_to_start_tokens"])
    func deadTokensAreFoundThroughAnIndex(table: String) async throws {
        try await TestDatabase.with { database in
            let app = try await database.makeApp(in: try await database.makeWorkspace())
            let lines = try await Self.indexPlan(
                of: "DELETE FROM \(table) WHERE app_id = $1 AND push_token = ANY($2::text[])", [app.id, ["ab", "cd"]],
                in: database)
            #expect(lines.contains { $0.contains("Index") && $0.contains("\(table)_push_token_idx") }, "\(lines)")
            #expect(lines.contains { $0.contains("push_token = ANY") && $0.contains("Index Cond") }, "\(lines)")
        }
    }

    /// Migration 014: every index on dispatches is written twice per accepted message (the new dispatch,
    /// and the new version of the one it supersedes), so only indexes some statement reads are kept;
    /// migration 015 added the one housekeeping reads, 016 split the claim's by status, 017 added two only
    /// starts enter and made the unfinished dispatches' index by activity hold every dispatch.
    @Test func dispatchesKeepOnlyTheIndexesTheirStatementsRead() async throws {
        try await TestDatabase.with { database in
            let indexes = try await database.pool.query(
                "SELECT indexname FROM pg_indexes WHERE schemaname = 'public' AND tablename = 'dispatches' ORDER BY 1"
            ).map { try $0.require("indexname", as: String.self) }
            #expect(
                indexes == [
                    "dispatches_activity_idx", "dispatches_due_idx", "dispatches_finished_idx", "dispatches_leased_idx",
                    "dispatches_pkey", "dispatches_starts_idx", "dispatches_unchecked_starts_idx",
                ])

            // The lookup that read through the dropped index is served by the one by activity, finished or not.
            let lines = try await Self.indexPlan(
                of: "SELECT id FROM dispatches WHERE app_id = $1 AND activity_id = $2 AND completed_at IS NULL",
                [UUID(), "match"], in: database)
            #expect(lines.contains { $0.contains("dispatches_activity_idx") }, "\(lines)")
            #expect(lines.contains { $0.contains("completed_at IS NULL") && $0.contains("Index Cond") }, "\(lines)")
        }
    }

    /// Migration 016: a claim reads due dispatches and expired leases each through an index of its own,
    /// so it no longer walks past every dispatch being delivered to find the due ones.
    @Test func aClaimReadsDueDispatchesAndExpiredLeasesThroughTheirOwnIndexes() async throws {
        try await TestDatabase.with { database in
            // A table the planner knows: mostly finished, some due, some being delivered.
            try await database.pool.query(
                """
                INSERT INTO dispatches (id, workspace_id, app_id, event, activity_id, payload, priority, expires_at, status,
                                        completed_at, leased_by, leased_until)
                SELECT gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), 'update', 'order-' || i, '{}', 10, now(),
                       s.status, CASE WHEN s.status = 'done' THEN now() END,
                       CASE WHEN s.status = 'delivering' THEN 'w' END,
                       CASE WHEN s.status = 'delivering' THEN now() + interval '1 minute' END
                FROM generate_series(1, 5000) i
                CROSS JOIN LATERAL (SELECT CASE WHEN i % 10 = 0 THEN 'pending' WHEN i % 10 = 1 THEN 'delivering'
                                                ELSE 'done' END AS status) s
                """)
            try await database.pool.query("ANALYZE dispatches")
            let lines = try await Self.indexPlan(
                of: PostgresDeliveryQueue.claimStatementSQL, ["worker", 60.0, 10, Int32?.none, [String](), true], in: database)
            #expect(lines.contains { $0.contains("dispatches_due_idx") }, "\(lines)")
            #expect(lines.contains { $0.contains("next_attempt_at <= now()") && $0.contains("Index Cond") }, "\(lines)")
            #expect(lines.contains { $0.contains("dispatches_leased_idx") }, "\(lines)")
            #expect(lines.contains { $0.contains("leased_until < now()") && $0.contains("Index Cond") }, "\(lines)")
        }
    }

    /// Migration 015: housekeeping finds finished dispatches past the retention through an index, not by
    /// reading the whole table on every pass.
    @Test func housekeepingFindsFinishedDispatchesThroughAnIndex() async throws {
        try await TestDatabase.with { database in
            let lines = try await Self.indexPlan(
                of: Housekeeping.finishedDispatchesSelection, [86_400.0, 10_000], in: database)
            #expect(lines.contains { $0.contains("dispatches_finished_idx") }, "\(lines)")
            #expect(lines.contains { $0.contains("completed_at <") && $0.contains("Index Cond") }, "\(lines)")
        }
    }

    @Test func constraintsRejectBadTenancyData() async throws {
        try await TestDatabase.with { database in
            let workspace = try await database.makeWorkspace()
            let zeroLimit = await #expect(throws: TenancyError.self) {
                _ = try await database.tenancy.createWorkspace(name: "x", rateLimitPerHour: 0)
            }
            #expect(zeroLimit?.code == .invalidValue)

            let noWorkspace = await #expect(throws: TenancyError.self) {
                _ = try await database.tenancy.createApp(
                    workspaceID: UUID(), name: "a", identifier: nil, bundleID: "b", endpoint: .sandbox, credentials: nil)
            }
            #expect(noWorkspace?.code == .workspaceNotFound)

            let first = try await database.tenancy.createApp(
                workspaceID: workspace.id, name: "a", identifier: "braze-app-1", bundleID: "b", endpoint: .production, credentials: nil)
            #expect(first.identifier == "braze-app-1")
            let duplicate = await #expect(throws: TenancyError.self) {
                _ = try await database.tenancy.createApp(
                    workspaceID: workspace.id, name: "a", identifier: "braze-app-1", bundleID: "b", endpoint: .sandbox, credentials: nil)
            }
            #expect(duplicate?.code == .appIdentifierTaken)

            // Half a credential set is refused by the schema itself.
            let partial = await #expect(throws: PostgresError.self) {
                try await database.pool.query(
                    "INSERT INTO apps (workspace_id, app_identifier, name, bundle_id, apns_endpoint, apns_team_id) VALUES ($1, 'p', 'n', 'b', 'sandbox', 'TEAM')",
                    [workspace.id])
            }
            #expect(partial?.sqlState == "23514")
        }
    }
}
