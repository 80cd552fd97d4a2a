import APNsCore
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

@Suite("Delivery queue: leases over committed dispatches", .requiresPostgres)
struct DeliveryQueueTests {
    /// Commits `count` update dispatches through the API's own store.
    static func commit(_ count: Int, in database: TestDatabase) async throws -> [UUID] {
        let workspace = try await database.makeWorkspace()
        let app = try await database.makeApp(in: workspace)
        var ids: [UUID] = []
        for index in 0..<count {
            let dispatch = Dispatch(
                workspaceID: workspace.id, appID: app.id, event: index % 2 == 0 ? .update : .end, activityID: "match-\(index)",
                externalID: index == 0 ? "fan-1" : nil, payload: Array(#"{"aps":{"n":\#(index)}}"#.utf8), priority: .immediate,
                expiresAt: Date().addingTimeInterval(3600))
            _ = try await database.dependencies.dispatches.commitUpdate(dispatch, idempotency: nil) { _ in
                StoredResponse(status: 201, body: "")
            }
            ids.append(dispatch.id)
        }
        return ids
    }

    @Test func claimsDueDispatchesWithEverythingDeliveryNeeds() async throws {
        try await TestDatabase.with { database in
            let ids = try await Self.commit(2, in: database)
            let queue = PostgresDeliveryQueue(pool: database.pool)
            let claimed = try await queue.claim(worker: "w1", limit: 10, lease: .seconds(30))
            #expect(Set(claimed.map(\.dispatch.id)) == Set(ids))
            let first = try #require(claimed.first { $0.dispatch.id == ids[0] })
            #expect(first.dispatch.event == .update)
            #expect(first.dispatch.externalID == "fan-1")
            #expect(first.dispatch.payload == Array(#"{"aps":{"n":0}}"#.utf8))
            #expect(first.dispatch.priority == .immediate)
            #expect(first.fanoutCursor == 0)
            #expect(first.attempts == 1)
            #expect(try #require(claimed.first { $0.dispatch.id == ids[1] }).dispatch.event == .end)
            // Held: nobody else gets them while the lease runs.
            #expect(try await queue.claim(worker: "w2", limit: 10, lease: .seconds(30)).isEmpty)
        }
    }

    @Test func concurrentWorkersNeverShareADispatch() async throws {
        try await TestDatabase.with(poolSize: 8) { database in
            let ids = try await Self.commit(40, in: database)
            let queue = PostgresDeliveryQueue(pool: database.pool)
            let claims = try await withThrowingTaskGroup(of: [UUID].self) { group in
                for worker in 0..<6 {
                    group.addTask {
                        var mine: [UUID] = []
                        while true {
                            let batch = try await queue.claim(worker: "w\(worker)", limit: 3, lease: .seconds(30))
                            if batch.isEmpty { return mine }
                            mine += batch.map(\.dispatch.id)
                        }
                    }
                }
                return try await group.reduce(into: [[UUID]]()) { $0.append($1) }
            }
            let all = claims.flatMap { $0 }
            #expect(all.count == 40, "each dispatch claimed exactly once")
            #expect(Set(all) == Set(ids))
        }
    }

    @Test func aCrashedWorkersClaimIsTakenOverWhereItStopped() async throws {
        try await TestDatabase.with { database in
            let ids = try await Self.commit(1, in: database)
            let queue = PostgresDeliveryQueue(pool: database.pool)
            let crashed = try #require(try await queue.claim(worker: "crashed", limit: 1, lease: .seconds(30)).first)
            #expect(
                try await queue.recordProgress(
                    crashed, worker: "crashed", progress: .init(cursor: 500, sent: 480, failed: 2, retried: 15, removed: 3),
                    lease: .seconds(30)) == .recorded(stop: nil))
            #expect(try await queue.claim(worker: "survivor", limit: 1, lease: .seconds(30)).isEmpty)
            // The crashed worker renews no more: its lease runs out (moved into the past, not waited for).
            try await database.pool.query("UPDATE dispatches SET leased_until = now() - interval '1 second'")
            let taken = try await queue.claim(worker: "survivor", limit: 1, lease: .seconds(30))
            #expect(taken.map(\.dispatch.id) == ids)
            let survivor = try #require(taken.first)
            #expect(taken.first?.fanoutCursor == 500, "resumes after the last page the crashed worker recorded")
            #expect(taken.first?.attempts == 2)
            // The old owner, if it was only slow, finds out it lost the lease.
            #expect(
                try await queue.recordProgress(crashed, worker: "crashed", progress: .init(cursor: 600), lease: .seconds(30)) == .leaseLost)
            #expect(try await !queue.extendLease(ids[0], worker: "crashed", lease: .seconds(30)))
            #expect(try await !queue.settle(DispatchSettlement(crashed, .finished(.done)), worker: "crashed"))
            #expect(
                try await queue.recordProgress(survivor, worker: "survivor", progress: .init(cursor: 900, sent: 400), lease: .seconds(30))
                    == .recorded(stop: nil))
            #expect(try await queue.extendLease(ids[0], worker: "survivor", lease: .seconds(30)))
            #expect(try await queue.settle(DispatchSettlement(survivor, .finished(.done)), worker: "survivor"))
            let counts = try await database.pool.query(
                "SELECT status, sent_count, failed_count, retried_count, removed_count, fanout_cursor FROM dispatches")[0]
            #expect(try counts.require("status", as: String.self) == "done")
            #expect(try counts.require("sent_count", as: Int.self) == 880)
            #expect(try counts.require("failed_count", as: Int.self) == 2)
            #expect(try counts.require("retried_count", as: Int.self) == 15)
            #expect(try counts.require("removed_count", as: Int.self) == 3)
            #expect(try counts.require("fanout_cursor", as: Int64.self) == 900)
            #expect(try await queue.claim(worker: "anyone", limit: 1, lease: .seconds(30)).isEmpty, "done is done")
        }
    }

    @Test func aReleasedDispatchComesBackWhenDue() async throws {
        try await TestDatabase.with { database in
            let ids = try await Self.commit(1, in: database)
            let queue = PostgresDeliveryQueue(pool: database.pool)
            _ = try await queue.claim(worker: "w1", limit: 1, lease: .seconds(30))
            #expect(try await queue.release(ids[0], worker: "w1", retryAt: Date().addingTimeInterval(60)))
            #expect(try await queue.claim(worker: "w2", limit: 1, lease: .seconds(30)).isEmpty, "not due yet")
            // Time passes (moved, not waited for).
            try await database.pool.query("UPDATE dispatches SET next_attempt_at = now() - interval '1 second'")
            #expect(try await queue.claim(worker: "w2", limit: 1, lease: .seconds(30)).map(\.dispatch.id) == ids)
        }
    }
}
