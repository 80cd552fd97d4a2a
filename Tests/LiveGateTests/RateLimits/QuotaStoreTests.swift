import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import TestSupport
import Testing

@Suite("Quota leases in PostgreSQL", .requiresPostgres)
struct QuotaStoreTests {
    @Test func concurrentLeasesNeverHandOutMoreThanTheLimit() async throws {
        try await TestDatabase.with(poolSize: 8) { database in
            let workspace = try await database.makeWorkspace()
            let store = PostgresQuotaStore(pool: database.pool)
            let window = Date(timeIntervalSince1970: 1_795_881_600)
            let leased = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<24 {
                    group.addTask { try await store.lease(workspaceID: workspace.id, window: window, wanted: 7, limit: 100).leased }
                }
                return try await group.reduce(0, +)
            }
            #expect(leased == 100)
            #expect(
                try await store.lease(workspaceID: workspace.id, window: window, wanted: 7, limit: 100)
                    == QuotaLease(leased: 0, windowTotal: 100))
            try await store.giveBack(workspaceID: workspace.id, window: window, count: 5)
            #expect(
                try await store.lease(workspaceID: workspace.id, window: window, wanted: 7, limit: 100)
                    == QuotaLease(leased: 5, windowTotal: 100))
            // Another hour is another window.
            #expect(
                try await store.lease(workspaceID: workspace.id, window: window.addingTimeInterval(3600), wanted: 7, limit: 100)
                    == QuotaLease(leased: 7, windowTotal: 7))
        }
    }
}
