import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

/// The claim statement against real worker sessions: a claim made under a session that has ended is
/// taken over at once, long before its 60 s lease; a live session's claims stay its own.
@Suite("Delivery worker sessions: claims of a dead session are taken over at once", .requiresPostgres)
struct WorkerSessionTests {
    static let lease = Duration.seconds(60)

    @Test func aClaimWhoseSessionEndedIsTakenOverLongBeforeItsLease() async throws {
        try await TestDatabase.with { database in
            let ids = try await DeliveryQueueTests.commit(1, in: database)
            let queue = PostgresDeliveryQueue(pool: database.pool)
            try await Self.withSessions(2, database) { sessions in
                let crashed = try #require(try await sessions[0].take())
                let survivor = try #require(try await sessions[1].take())
                #expect(crashed != survivor, "every worker draws its own number")
                let claimed = try #require(
                    try await queue.claim(worker: "crashed", session: crashed, limit: 1, lease: Self.lease, excluding: []).first)
                #expect(
                    try await queue.recordProgress(claimed, worker: "crashed", progress: .init(cursor: 500, sent: 500), lease: Self.lease)
                        == .recorded(stop: nil))
                #expect(
                    try await queue.claim(worker: "survivor", session: survivor, limit: 1, lease: Self.lease, excluding: []).isEmpty,
                    "a live session's claim stays its own")

                // What SIGKILL does to a worker's connection: the server ends its session.
                await sessions[0].close()
                let started = ContinuousClock.now
                var taken: [ClaimedDispatch] = []
                while taken.isEmpty, ContinuousClock.now - started < .seconds(45) {
                    taken = try await queue.claim(worker: "survivor", session: survivor, limit: 1, lease: Self.lease, excluding: [])
                    if taken.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
                }
                #expect(ContinuousClock.now - started < .seconds(30), "taken over in seconds, not after the 60 s lease")
                #expect(taken.map(\.dispatch.id) == ids)
                #expect(taken.first?.fanoutCursor == 500, "resumes after the last page the dead worker recorded")
                #expect(taken.first?.attempts == 2)
                let row = try await database.pool.query(
                    "SELECT leased_by, leased_by_session, leased_until > now() + interval '50 seconds' AS fresh FROM dispatches")[0]
                #expect(try row.require("leased_by", as: String.self) == "survivor")
                #expect(try row.require("leased_by_session", as: Int32.self) == survivor)
                #expect(try row.require("fresh", as: Bool.self), "a new lease of its own")
                // Had the old worker only been cut off, it finds out before sending more.
                #expect(try await !queue.extendLease(ids[0], worker: "crashed", lease: Self.lease))
            }
        }
    }

    @Test func aLiveWorkerNeverTakesBackWhatItIsDelivering() async throws {
        try await TestDatabase.with { database in
            let ids = try await DeliveryQueueTests.commit(2, in: database)
            let queue = PostgresDeliveryQueue(pool: database.pool)
            try await Self.withSessions(1, database) { sessions in
                let session = try #require(try await sessions[0].take())
                let claimed = try await queue.claim(worker: "w", session: session, limit: 2, lease: Self.lease, excluding: [])
                #expect(Set(claimed.map(\.dispatch.id)) == Set(ids))
                // Its own claims, even with their lease run out, while it says it is delivering them.
                try await database.pool.query("UPDATE dispatches SET leased_until = now() - interval '1 second'")
                #expect(try await queue.claim(worker: "w", session: session, limit: 2, lease: Self.lease, excluding: Set(ids)).isEmpty)
                // Handed back (due now) but still being wound up here: not claimed again until it says so.
                #expect(try await queue.release(ids[0], worker: "w", retryAt: Date()))
                #expect(
                    try await queue.claim(worker: "w", session: session, limit: 2, lease: Self.lease, excluding: [ids[0], ids[1]]).isEmpty)
                #expect(
                    try await queue.claim(worker: "w", session: session, limit: 1, lease: Self.lease, excluding: [ids[1]]).map(
                        \.dispatch.id) == [ids[0]])
            }
        }
    }

    @Test func aClaimWithoutASessionWaitsForItsLease() async throws {
        try await TestDatabase.with { database in
            let ids = try await DeliveryQueueTests.commit(1, in: database)
            let queue = PostgresDeliveryQueue(pool: database.pool)
            try await Self.withSessions(1, database) { sessions in
                let survivor = try #require(try await sessions[0].take())
                _ = try await queue.claim(worker: "old", limit: 1, lease: Self.lease)
                #expect(try await queue.claim(worker: "survivor", session: survivor, limit: 1, lease: Self.lease, excluding: []).isEmpty)
                try await database.pool.query("UPDATE dispatches SET leased_until = now() - interval '1 second'")
                #expect(
                    try await queue.claim(worker: "survivor", session: survivor, limit: 1, lease: Self.lease, excluding: []).map(
                        \.dispatch.id) == ids)
            }
        }
    }

    /// A restart of the database ends every session: the worker notices at once and takes its lock again
    /// under the same number, so what it claimed stays its own.
    @Test func aSessionTheServerEndedIsNoticedAndTakenAgainUnderTheSameNumber() async throws {
        try await TestDatabase.with { database in
            _ = try await DeliveryQueueTests.commit(1, in: database)
            let queue = PostgresDeliveryQueue(pool: database.pool)
            try await Self.withSessions(2, database) { sessions in
                let number = try #require(try await sessions[0].take())
                let other = try #require(try await sessions[1].take())
                _ = try await queue.claim(worker: "w", session: number, limit: 1, lease: Self.lease, excluding: [])
                #expect(await sessions[0].waitWhileHeld(upTo: .milliseconds(50)))
                let terminated = try await database.pool.query(
                    """
                    SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
                    WHERE application_name = 'livegate-delivery-session' AND datname = current_database()
                      AND pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = 1279738956 AND objid = $1)
                    """, [number])
                #expect(try terminated[0].require("n", as: Int.self) == 1)
                let noticing = ContinuousClock.now
                #expect(await !sessions[0].waitWhileHeld(upTo: .seconds(120)))
                #expect(ContinuousClock.now - noticing < .seconds(60), "noticed when the server closed it, not at the 120 s timeout")
                #expect(try await sessions[0].take() == number)
                #expect(
                    try await queue.claim(worker: "other", session: other, limit: 1, lease: Self.lease, excluding: []).isEmpty,
                    "held again: the claim is still the worker's")
            }
        }
    }

    static func withSessions(
        _ count: Int, _ database: TestDatabase, _ body: ([PostgresWorkerSession]) async throws -> Void
    ) async throws {
        let sessions = (0..<count).map { _ in PostgresWorkerSession(configuration: database.pool.configuration) }
        do {
            try await body(sessions)
        } catch {
            for session in sessions { await session.close() }
            throw error
        }
        for session in sessions { await session.close() }
    }
}
