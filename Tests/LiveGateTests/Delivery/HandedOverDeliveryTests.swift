import APNsCore
import APNsSimulator
import Foundation
import HTTPTypes
import HummingbirdTesting
import LiveGateAPI
@testable import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import NIOConcurrencyHelpers
import PostgresClient
import TestSupport
import Testing

import LiveGate

/// Updates this gateway commits go to its own running engine without a claim: written leased to it,
/// handed over in memory, delivered on the small-dispatch path with every guarantee a claim gives.
@Suite("Updates handed to the engine at their commit", .requiresPostgres)
struct HandedOverDeliveryTests {
    /// No poll and no ring: the only way the update can reach the device within the test is the handoff
    /// (written pending it would wait an hour for the poll; leased and not handed, 30 s for its lease).
    @Test func anUpdateIsDeliveredWithoutAClaim() async throws {
        var settings = DeliveryHarness.testSettings
        settings.pollInterval = .seconds(3_600)
        try await DeliveryHarness.with(settings: settings) { harness in
            try await harness.register(token(0x51), device: "phone", tag: "order-1")
            var id = ""
            try await DeliveryServiceTests.running(harness.engine) {
                // The engine's first claim, at its start, is over before the update is committed.
                try await Task.sleep(for: .milliseconds(200))
                id = try await harness.update(#""content_state":{"stage":"cooking"}"#, activityID: "order-1")
                try await DeliveryServiceTests.waitUntil("the dispatch is done", timeout: .seconds(20)) {
                    try await harness.dispatch(id).require("status", as: String.self) == "done"
                }
            }
            let row = try await harness.dispatch(id)
            #expect(try row.require("sent_count", as: Int.self) == 1)
            #expect(try row.require("attempts", as: Int.self) == 1, "its commit counted as its one claim")
            let leased = try await harness.database.pool.query("SELECT leased_by FROM dispatches WHERE id = $1", [id])[0]
            #expect(try leased.decode("leased_by", as: String.self) == nil, "nothing left leased")
            #expect(harness.simulator.received.map(\.deviceToken) == [token(0x51)])
        }
    }

    /// A start to a user is handed over at its commit too: delivered to the user's push-to-start token
    /// with no claim, its target answered. The commit rings a doorbell the engine does not hear and the
    /// poll is an hour away, so only the handoff can bring it to the engine within the test.
    @Test func aStartIsDeliveredWithoutAClaim() async throws {
        var settings = DeliveryHarness.testSettings
        settings.pollInterval = .seconds(3_600)
        try await DeliveryHarness.with(settings: settings) { harness in
            try await harness.database.registerPushToStart(
                harness.tenant, type: "OrderAttributes", device: "phone", token: token(0x71), externalID: "fan-1")
            let body = #"""
                {"app_id":"\#(harness.tenant.app.identifier)","activity_id":"order-71","activity_attributes_type":"OrderAttributes",
                 "activity_attributes":{},"content_state":{"stage":"cooking"},"external_user_ids":["fan-1"],
                 "notification":{"alert":{"title":"Your order","body":"Cooking"}}}
                """#
            let id = NIOLockedValueBox<String?>(nil)
            try await DeliveryServiceTests.running(harness.engine) {
                try await Task.sleep(for: .milliseconds(200))
                // The gateway's wiring but for the doorbell its commits ring.
                let deaf = DeliveryCommits(doorbell: DeliveryDoorbell(), stops: harness.stops, handoff: harness.handoff)
                let app = buildApplication(
                    configuration: harness.parts.configuration,
                    dependencies: .postgres(pool: harness.database.pool, commits: deaf), logger: .quiet)
                try await app.test(.router) { client in
                    let response = try await client.post("/messages/live_activity/start", body, key: harness.tenant.secret)
                    #expect(response.status == .created)
                    id.withLockedValue { $0 = response.dispatchID }
                }
                let started = try #require(id.withLockedValue { $0 })
                try await DeliveryServiceTests.waitUntil("the start is done", timeout: .seconds(20)) {
                    try await harness.dispatch(started).require("status", as: String.self) == "done"
                }
            }
            let started = try #require(id.withLockedValue { $0 })
            let row = try await harness.dispatch(started)
            #expect(try row.require("sent_count", as: Int.self) == 1)
            #expect(try row.require("attempts", as: Int.self) == 1, "its commit counted as its one claim")
            let target = try await harness.database.pool.query(
                "SELECT apns_status FROM dispatch_targets WHERE dispatch_id = $1", [started])
            #expect(try target.map { try $0.require("apns_status", as: Int.self) } == [200])
            #expect(harness.simulator.received.map(\.deviceToken) == [token(0x71)])
        }
    }

    /// Two updates to one order committed by one statement (its supersession cannot see its own rows)
    /// and a third order's beside them: the older ends superseded with nothing sent, the newer reaches
    /// the device, the other order is untouched.
    @Test func updatesToOneActivityInOneCommitSendOnlyTheNewest() async throws {
        var settings = DeliveryHarness.testSettings
        settings.pollInterval = .seconds(3_600)
        try await DeliveryHarness.with(settings: settings) { harness in
            try await harness.register(token(0x61), device: "phone", tag: "order-6")
            try await harness.register(token(0x62), device: "tablet", tag: "order-7")
            let older = harness.dispatch(to: "order-6", #"{"stage":"cooking"}"#)
            let other = harness.dispatch(to: "order-7", #"{"stage":"cooking"}"#)
            let newer = harness.dispatch(to: "order-6", #"{"stage":"on the way"}"#)
            try await DeliveryServiceTests.running(harness.engine) {
                try await Task.sleep(for: .milliseconds(200))
                let results = await PostgresDispatchStore.writeUpdates(
                    [older, other, newer], supersede: true, pool: harness.database.pool,
                    listener: DeliveryCommits(doorbell: harness.doorbell, stops: harness.stops, handoff: harness.handoff))
                #expect(results.allSatisfy { (try? $0.get()) != nil })
                try await DeliveryServiceTests.waitUntil("all three ended", timeout: .seconds(20)) {
                    try await harness.database.pool.query("SELECT 1 FROM dispatches WHERE completed_at IS NULL").isEmpty
                }
            }
            let olderRow = try await harness.dispatch(older.id.uuidString.lowercased())
            #expect(try olderRow.require("status", as: String.self) == "superseded")
            #expect(try olderRow.require("sent_count", as: Int.self) == 0)
            let newerRow = try await harness.dispatch(newer.id.uuidString.lowercased())
            #expect(try newerRow.require("status", as: String.self) == "done")
            let otherRow = try await harness.dispatch(other.id.uuidString.lowercased())
            #expect(try otherRow.require("status", as: String.self) == "done")
            let received = harness.simulator.received
            #expect(received.filter { $0.deviceToken == token(0x61) }.count == 1)
            #expect(
                received.filter { $0.deviceToken == token(0x61) }.allSatisfy {
                    String(decoding: $0.payload, as: UTF8.self).contains("on the way")
                })
            #expect(received.filter { $0.deviceToken == token(0x62) }.count == 1)
        }
    }

    /// A stopping engine takes nothing more: commits then write their updates pending, for any gateway.
    @Test func aStoppedEngineTakesNothing() async throws {
        try await DeliveryHarness.with() { harness in
            try await harness.register(token(0x71), device: "phone", tag: "order-8")
            try await DeliveryServiceTests.running(harness.engine) {}
            let id = try await harness.update(#""content_state":{"stage":"cooking"}"#, activityID: "order-8")
            let row = try await harness.dispatch(id)
            #expect(try row.require("status", as: String.self) == "pending")
            #expect(try row.require("attempts", as: Int.self) == 0)
        }
    }
}

/// The handoff's own bookkeeping: grants only while an engine is open, has room and holds its session.
@Suite("Delivery handoff")
struct DeliveryHandoffTests {
    static func claimed(_ number: Int) -> ClaimedDispatch {
        ClaimedDispatch(
            handedOver: Dispatch(
                workspaceID: UUID(), appID: UUID(), event: .update, activityID: "order-\(number)", externalID: nil,
                payload: Array("{}".utf8), priority: .immediate, expiresAt: Date() + 3_600),
            createdAt: Date())
    }

    @Test func grantsWithinTheRoomAndOnlyWhileOpen() throws {
        let handoff = DeliveryHandoff(doorbell: DeliveryDoorbell(), stops: DispatchStopSignals())
        #expect(handoff.grant(1) == nil, "no engine yet")
        handoff.open(.init(worker: "w", lease: .seconds(30)) { (held: nil, hasSession: false, room: 3) })
        let first = handoff.grant(2)
        #expect(first?.worker == "w")
        #expect(first?.count == 2)
        #expect(handoff.grant(2) == nil, "2 of 3 granted already")
        handoff.giveBack(try #require(first))
        let second = try #require(handoff.grant(3))
        handoff.hand([Self.claimed(1), Self.claimed(2), Self.claimed(3)], under: second)
        #expect(handoff.grant(1) == nil, "3 handed over and not yet taken")
        guard case .now(let taken) = handoff.take(atMostEvery: .seconds(60), atOnceFrom: 100) else {
            Issue.record("the first batch waits for nothing")
            return
        }
        #expect(taken.map(\.claimed.dispatch.activityID) == ["order-1", "order-2", "order-3"])
        #expect(handoff.grant(1) != nil, "taken: the engine's own room counts them now")
        #expect(handoff.close().isEmpty)
        #expect(handoff.grant(1) == nil, "closed")
    }

    /// Within the interval, what is handed over gathers: one wake when it is over, or at once when a
    /// batch's worth is waiting.
    @Test func batchesGatherWithinTheInterval() throws {
        let handoff = DeliveryHandoff(doorbell: DeliveryDoorbell(), stops: DispatchStopSignals())
        handoff.open(.init(worker: "w", lease: .seconds(30)) { (held: nil, hasSession: false, room: 100) })
        let start = ContinuousClock.now
        handoff.hand([Self.claimed(1)], under: try #require(handoff.grant(1)))
        guard case .now = handoff.take(atMostEvery: .milliseconds(10), atOnceFrom: 3, now: start) else {
            Issue.record("the first batch goes at once")
            return
        }
        handoff.hand([Self.claimed(2)], under: try #require(handoff.grant(1)))
        guard case .later(let wait) = handoff.take(atMostEvery: .milliseconds(10), atOnceFrom: 3, now: start + .milliseconds(4))
        else {
            Issue.record("the second waits for the interval")
            return
        }
        #expect(wait == .milliseconds(6))
        guard case .nothing = handoff.take(atMostEvery: .milliseconds(10), atOnceFrom: 3, now: start + .milliseconds(5)) else {
            Issue.record("one wake is enough")
            return
        }
        handoff.hand([Self.claimed(3), Self.claimed(4)], under: try #require(handoff.grant(2)))
        guard case .now(let full) = handoff.take(atMostEvery: .milliseconds(10), atOnceFrom: 3, now: start + .milliseconds(6))
        else {
            Issue.record("a batch's worth goes at once")
            return
        }
        #expect(full.count == 3)
    }

    @Test func noGrantWhileTheSessionIsLost() {
        let handoff = DeliveryHandoff(doorbell: DeliveryDoorbell(), stops: DispatchStopSignals())
        handoff.open(.init(worker: "w", lease: .seconds(30)) { (held: nil, hasSession: true, room: 100) })
        #expect(handoff.grant(1) == nil)
    }

    @Test func whatWasNotTakenComesBackOnClose() throws {
        let stops = DispatchStopSignals()
        let handoff = DeliveryHandoff(doorbell: DeliveryDoorbell(), stops: stops)
        handoff.open(.init(worker: "w", lease: .seconds(30)) { (held: nil, hasSession: false, room: 10) })
        let grant = try #require(handoff.grant(1))
        let dispatch = Self.claimed(4)
        handoff.hand([dispatch], under: grant)
        #expect(stops.watched == [dispatch.dispatch.id], "watched from its commit")
        #expect(handoff.close().map(\.claimed.dispatch.id) == [dispatch.dispatch.id])
    }
}

extension DeliveryHarness {
    /// An update to `activityID` as the API would build it, not yet committed.
    func dispatch(to activityID: String, _ contentState: String) -> Dispatch {
        let payload = #"{"aps":{"timestamp":\#(Int(Date().timeIntervalSince1970)),"event":"update","content-state":\#(contentState)}}"#
        return Dispatch(
            workspaceID: tenant.workspace.id, appID: tenant.app.id, event: .update, activityID: activityID, externalID: nil,
            payload: Array(payload.utf8), priority: .immediate, expiresAt: Date() + 3_600)
    }
}
