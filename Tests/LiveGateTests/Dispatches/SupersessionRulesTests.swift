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

/// Which older dispatches an accepted update or end supersedes, read back through the dispatch resource.
/// No delivery runs, so the older ones are still pending and end as `superseded` at once.
@Suite("Supersession: which dispatches a newer one covers", .requiresPostgres)
struct SupersessionRulesTests {
    @Test func aWholeTagUpdateSupersedesOlderUpdatesOfTheTagWhetherWholeOrNarrowed() async throws {
        try await DispatchAPI.with { api in
            let whole = try await api.update()
            let narrowed = try await api.update(externalID: "fan-7")
            let newest = try await api.update(state: #"{"score":"2-0"}"#)
            #expect(try await api.status(whole) == "superseded")
            #expect(try await api.status(narrowed) == "superseded")
            #expect(try await api.supersededBy(whole) == newest)
            #expect(try await api.supersededBy(narrowed) == newest)
            #expect(try await api.status(newest) == "pending")
            let completed = try await api.get(whole).json["completed_at"]?.stringValue
            #expect(completed != nil, "a superseded dispatch has ended")
        }
    }

    @Test func aNarrowedUpdateSupersedesOnlyOlderOnesNarrowedToTheSameUser() async throws {
        try await DispatchAPI.with { api in
            let whole = try await api.update()
            let sameUser = try await api.update(externalID: "fan-7")
            let otherUser = try await api.update(externalID: "fan-8")
            let newest = try await api.update(externalID: "fan-7", state: #"{"score":"2-0"}"#)
            #expect(try await api.status(whole) == "pending", "a narrowed update does not reach the whole tag")
            #expect(try await api.status(otherUser) == "pending")
            #expect(try await api.status(sameUser) == "superseded")
            #expect(try await api.supersededBy(sameUser) == newest)
        }
    }

    @Test func anEndIsNeverSupersededByAnUpdateButSupersedesUpdatesAndEnds() async throws {
        try await DispatchAPI.with { api in
            let update = try await api.update()
            let firstEnd = try await api.update(end: true)
            #expect(try await api.status(update) == "superseded", "an end covers an older update")
            let later = try await api.update(state: #"{"score":"3-0"}"#)
            #expect(try await api.status(firstEnd) == "pending", "an update never supersedes an end")
            let secondEnd = try await api.update(end: true, state: #"{"score":"3-1"}"#)
            #expect(try await api.status(firstEnd) == "superseded")
            #expect(try await api.supersededBy(firstEnd) == secondEnd)
            #expect(try await api.status(later) == "superseded")
        }
    }

    @Test func aStartIsNeverSupersededAndSupersedesNothing() async throws {
        try await DispatchAPI.with { api in
            try await api.database.registerPushToStart(
                api.tenant, type: "MatchAttributes", device: "d1", token: token(0x51), externalID: "fan-1")
            let update = try await api.update()
            let start = try await api.start()
            #expect(try await api.status(update) == "pending", "a start supersedes nothing")
            try await api.update(end: true)
            #expect(try await api.status(start) == "pending", "an end of the same activity leaves a start alone")
            #expect(try await api.status(update) == "superseded")
        }
    }

    @Test func otherActivitiesAndFinishedDispatchesAreLeftAlone() async throws {
        try await DispatchAPI.with { api in
            let other = try await api.update("match-2")
            let finished = try await api.update()
            try await api.database.pool.query("UPDATE dispatches SET status = 'done', completed_at = now() WHERE id = $1", [finished])
            try await api.update()
            #expect(try await api.status(other) == "pending")
            #expect(try await api.status(finished) == "done")
        }
    }

    /// A scheduled update is newer than anything sent before its time: immediate updates leave it alone,
    /// and once due it supersedes what it covers.
    @Test func aScheduledUpdateSupersedesWhenItBecomesDueNotWhenAccepted() async throws {
        try await DispatchAPI.with { api in
            let sendAt = Date().addingTimeInterval(3600)
            let scheduled = try await api.update(sendAt: sendAt.iso8601, state: #"{"score":"later"}"#)
            let now = try await api.update()
            #expect(try await api.status(scheduled) == "scheduled")
            #expect(try await api.status(now) == "pending")
            // Time passes (moved, not waited for); a delivery worker claims what is due.
            try await api.database.pool.query(
                "UPDATE dispatches SET send_at = now(), next_attempt_at = now() WHERE id = $1",
                [scheduled])
            let claimed = try await PostgresDeliveryQueue(pool: api.database.pool).claim(worker: "w", limit: 10, lease: .seconds(30))
            #expect(Set(claimed.map { $0.dispatch.id.uuidString.lowercased() }) == [scheduled, now])
            #expect(
                claimed.first { $0.dispatch.id.uuidString.lowercased() == now }?.stop == .superseded,
                "the one sent earlier than the scheduled time is older")
            #expect(claimed.first { $0.dispatch.id.uuidString.lowercased() == scheduled }?.stop == nil)
            #expect(try await api.supersededBy(now) == scheduled)
        }
    }

    /// Two updates of one tag committed by different statements at once cannot see each other; the
    /// claim sorts them out by acceptance order.
    @Test func aClaimSupersedesOlderDispatchesTheCommitCouldNotSee() async throws {
        try await DispatchAPI.with { api in
            let older = try await api.update()
            let newer = try await api.update(state: #"{"score":"2-0"}"#)
            // As if both had been committed at once: undo what the commit of the newer one did.
            try await api.database.pool.query(
                "UPDATE dispatches SET status = 'pending', superseded_by = NULL, completed_at = NULL WHERE id = $1", [older])
            let claimed = try await PostgresDeliveryQueue(pool: api.database.pool).claim(worker: "w", limit: 10, lease: .seconds(30))
            #expect(claimed.count == 2)
            #expect(claimed.first { $0.dispatch.id.uuidString.lowercased() == older }?.stop == .superseded)
            #expect(claimed.first { $0.dispatch.id.uuidString.lowercased() == newer }?.stop == nil)
        }
    }

    @Test func supersessionCanBeTurnedOffForMeasuring() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let store = PostgresDispatchStore(pool: database.pool, commitSettings: .init(supersedes: false))
            for score in 0..<2 { try await store.commit(tenant.update(score: score)) }
            #expect(try await database.count("SELECT count(*) FROM dispatches WHERE status = 'pending'") == 2)
            let claimed = try await PostgresDeliveryQueue(pool: database.pool, supersedes: false)
                .claim(worker: "w", limit: 10, lease: .seconds(30))
            #expect(claimed.allSatisfy { $0.stop == nil })
        }
    }

    /// A delivery under way (A) is superseded by X while X waits; N then supersedes X, which ends at once,
    /// and A still points at X. N must wait for A's pushes all the same, or a device can get A's older
    /// state after N's: under load this happened in DatabaseOutageTests.
    @Test func aDispatchWaitsForOlderDeliveriesSupersededThroughOneItSuperseded() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let store = PostgresDispatchStore(pool: database.pool)
            let queue = PostgresDeliveryQueue(pool: database.pool)
            try await store.commit(tenant.update(score: 1))
            let a = try #require(try await queue.claim(worker: "w1", limit: 10, lease: .seconds(30)).first)
            try await store.commit(tenant.update(score: 2))  // X: supersedes A, which keeps sending until its next page
            try await store.commit(tenant.update(score: 3))  // N: supersedes X, still pending, which ends at once
            let n = try #require(try await queue.claim(worker: "w2", limit: 10, lease: .seconds(30)).first)
            #expect(String(decoding: n.dispatch.payload, as: UTF8.self) == #"{"score":3}"#)
            #expect(try await queue.supersededStillSending(before: [n]).count == 1)
            #expect(try await queue.supersededStillSending(before: [a]).count == 0, "nothing older than A")

            _ = try await queue.settle(DispatchSettlement(a, .finished(.superseded)), worker: "w1")
            #expect(try await queue.supersededStillSending(before: [n]).count == 0)
        }
    }

    /// A dispatch narrowed to one user waits only for older deliveries to that user's devices.
    @Test func aNarrowedDispatchDoesNotWaitForAnotherUsersDelivery() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let store = PostgresDispatchStore(pool: database.pool)
            let queue = PostgresDeliveryQueue(pool: database.pool)
            try await store.commit(tenant.update(score: 1, externalID: "fan-1"))
            _ = try #require(try await queue.claim(worker: "w1", limit: 10, lease: .seconds(30)).first)
            try await store.commit(tenant.update(score: 2, externalID: "fan-1"))  // supersedes the delivery to fan-1
            let other = try await queue.claim(worker: "w2", limit: 10, lease: .seconds(30))
            try await store.commit(tenant.update(score: 3, externalID: "fan-2"))
            let fan2 = try #require(try await queue.claim(worker: "w3", limit: 10, lease: .seconds(30)).first)
            #expect(other.count == 1)
            #expect(try await queue.supersededStillSending(before: [fan2]).count == 0)
            #expect(try await queue.supersededStillSending(before: [other[0]]).count == 1)
        }
    }
}
