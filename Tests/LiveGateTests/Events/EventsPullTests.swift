import APNsCore
import APNsSimulator
import Foundation
import HTTPTypes
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
@testable import LiveGateStore
import NIOConcurrencyHelpers
import NIOCore
import PostgresClient
import TestSupport
import Testing

/// Events written beside what they describe, and `GET /events` paging through them: only while someone
/// subscribes, only the workspace's own, in an order no late commit can break.
@Suite("Events out: written and pulled", .requiresPostgres)
struct EventsPullTests {
    /// One page of `GET /events`: the events, and the cursor for the next.
    static func page(
        _ client: some TestClientProtocol, key: String, after: String? = nil, limit: Int = 100, extra: String = ""
    ) async throws -> (events: [JSONValue], next: String?, status: HTTPResponse.Status) {
        var query = "limit=\(limit)\(extra)"
        if let after { query += "&after=\(after)" }
        let response = try await client.execute(
            uri: "/events?\(query)", method: .get, headers: [.authorization: "Bearer \(key)"], body: nil)
        let text = String(buffer: response.body)
        let events = try text.split(separator: "\n").map { try JSONValue.parse(String($0)) }
        return (events, response.headers[HTTPField.Name("LiveGate-Next-Cursor")!], response.status)
    }

    /// The workspace's events, page by page, until `count` came (or 60 s passed). An event is readable
    /// once every transaction older than its own is over, in any database of the server: under other
    /// tests' load that can take a moment, and a reader asks again from its cursor.
    static func all(
        _ client: some TestClientProtocol, key: String, count: Int, limit: Int = 2
    ) async throws -> [JSONValue] {
        var events: [JSONValue] = []
        var after: String?
        let deadline = ContinuousClock.now + .seconds(60)
        while events.count < count, ContinuousClock.now < deadline {
            let page = try await page(client, key: key, after: after, limit: limit)
            #expect(page.status == .ok)
            events += page.events
            after = page.next
            if page.events.count < limit { try await Task.sleep(for: .milliseconds(20)) }
        }
        // Nothing more comes after what was expected.
        try await Task.sleep(for: .milliseconds(100))
        events += try await page(client, key: key, after: after, limit: 100).events
        return events
    }

    @Test func anUpdateAndItsPushesAndEndAreEventsInOrder() async throws {
        try await DeliveryHarness.with { harness in
            try await harness.parts.dependencies.reloadEventInterest?()
            try await harness.register(token(0x81), device: "phone", tag: "order-1", externalID: "fan-1")
            let accepted = NIOLockedValueBox("")
            try await DeliveryServiceTests.running(harness.engine) {
                let id = try await harness.update(#""content_state":{"stage":"cooking"}"#, activityID: "order-1")
                accepted.withLockedValue { $0 = id }
                try await DeliveryServiceTests.waitUntil("the dispatch is done", timeout: .seconds(20)) {
                    try await harness.dispatch(id).require("status", as: String.self) == "done"
                }
            }
            let app = harness.tenant.app.identifier
            let id = accepted.withLockedValue { $0 }
            try await harness.api { client in
                let events = try await Self.all(client, key: harness.tenant.secret, count: 4)
                #expect(events.map { $0["type"]?.stringValue } == ["token.registered", "dispatch.accepted", "push.sent", "dispatch.done"])
                #expect(Set(events.compactMap { $0["id"]?.stringValue }).count == 4, "each its own id")
                #expect(
                    events.allSatisfy {
                        $0["app_id"]?.stringValue == app
                            && $0["workspace_id"]?.stringValue == harness.tenant.workspace.id.uuidString.lowercased()
                    })
                let sent = events[2]
                #expect(sent["dispatch_id"]?.stringValue == id.lowercased())
                #expect(sent["activity_id"]?.stringValue == "order-1")
                #expect(sent["external_id"]?.stringValue == "fan-1")
                #expect(sent["token"]?.stringValue == String(token(0x81).suffix(8)))
                #expect(sent["apns_status"]?.numberLexeme == "200")
                #expect(sent["priority"]?.numberLexeme == "10")
                let apnsID = try #require(sent["apns_id"]?.stringValue)
                #expect(harness.simulator.received.first?.headers["apns-id"]?.lowercased() == apnsID)
                #expect(events[3]["sent"]?.numberLexeme == "1" && events[3]["status"]?.stringValue == "done")

                let pushes = try await Self.page(client, key: harness.tenant.secret, extra: "&type=push.sent,push.failed")
                #expect(pushes.events.map { $0["type"]?.stringValue } == ["push.sent"])
            }
        }
    }

    /// An `end`: the device it reached loses its token (`ended`), the one APNs called dead too (`apns`),
    /// with the failed push's answer.
    @Test func anEndAndADeadTokenRemoveTokensAsEvents() async throws {
        try await DeliveryHarness.with { harness in
            try await harness.parts.dependencies.reloadEventInterest?()
            harness.simulator.setBehavior(.unregistered, for: token(0x87))
            try await harness.register(token(0x86), device: "phone", tag: "order-7")
            try await harness.register(token(0x87), device: "tablet", tag: "order-7")
            try await DeliveryServiceTests.running(harness.engine) {
                let id = try await harness.update(#""content_state":{"stage":"delivered"},"end_activity":true"#, activityID: "order-7")
                try await DeliveryServiceTests.waitUntil("the dispatch is done", timeout: .seconds(20)) {
                    try await harness.dispatch(id).require("status", as: String.self) == "done"
                }
            }
            try await harness.api { client in
                let events = try await Self.all(client, key: harness.tenant.secret, count: 8)
                #expect(events.count == 8, "\(events)")
                let of = { (type: String) in events.filter { $0["type"]?.stringValue == type } }
                #expect(of("push.sent").map { $0["token"]?.stringValue } == [String(token(0x86).suffix(8))])
                let failed = try #require(of("push.failed").first)
                #expect(failed["apns_status"]?.numberLexeme == "410" && failed["apns_reason"]?.stringValue == "Unregistered")
                let removed = Dictionary(
                    of("token.removed").map { ($0["device_id"]?.stringValue ?? "", $0["reason"]?.stringValue ?? "") },
                    uniquingKeysWith: { a, _ in a })
                #expect(removed == ["phone": "ended", "tablet": "apns"])
                #expect(of("dispatch.done").first?["removed"]?.numberLexeme == "1")
            }
        }
    }

    /// A push-to-start two devices got: the one whose activity showed up confirms it, the other is
    /// found unconfirmed when starts are checked.
    @Test func aStartConfirmedOnOneDeviceAndNotOnAnotherAreEvents() async throws {
        try await DeliveryHarness.with { harness in
            try await harness.parts.dependencies.reloadEventInterest?()
            for (device, byte) in [("phone", 0x91), ("tablet", 0x92)] {
                try await harness.database.registerPushToStart(
                    harness.tenant, type: "OrderAttributes", device: device, token: token(byte), externalID: "fan-9")
            }
            let body = #"""
                {"app_id":"\#(harness.tenant.app.identifier)","activity_id":"order-9","activity_attributes_type":"OrderAttributes",
                 "activity_attributes":{},"content_state":{"stage":"cooking"},"external_user_ids":["fan-9"],
                 "notification":{"alert":{"title":"Your order","body":"Cooking"}}}
                """#
            try await DeliveryServiceTests.running(harness.engine) {
                let started = NIOLockedValueBox<String?>(nil)
                try await harness.api { client in
                    let response = try await client.post("/messages/live_activity/start", body, key: harness.tenant.secret)
                    #expect(response.status == .created)
                    started.withLockedValue { $0 = response.dispatchID }
                }
                let id = try #require(started.withLockedValue { $0 })
                try await DeliveryServiceTests.waitUntil("the start is done", timeout: .seconds(20)) {
                    try await harness.dispatch(id).require("status", as: String.self) == "done"
                }
            }
            // The phone's activity reports its update token under the start's activity id.
            try await harness.register(token(0x93), device: "phone", tag: "order-9")
            let interest = try #require(harness.parts.dependencies.eventInterest)
            let checked = try await UnconfirmedStarts(pool: harness.database.pool, after: .zero, events: interest).check()
            #expect(checked.unconfirmedDevices == 1)
            try await harness.api { client in
                let events = try await Self.all(client, key: harness.tenant.secret, count: 7)
                let of = { (type: String) in events.filter { $0["type"]?.stringValue == type } }
                let confirmed = try #require(of("start.confirmed").first)
                #expect(confirmed["device_id"]?.stringValue == "phone" && confirmed["activity_id"]?.stringValue == "order-9")
                #expect(
                    confirmed["external_id"]?.stringValue == "fan-9"
                        && confirmed["activity_attributes_type"]?.stringValue == "OrderAttributes")
                let unconfirmed = try #require(of("start.unconfirmed").first)
                #expect(
                    unconfirmed["device_id"]?.stringValue == "tablet" && unconfirmed["token"]?.stringValue == String(token(0x92).suffix(8)))
                #expect(of("start.unconfirmed").count == 1 && of("push.sent").count == 2)
            }
        }
    }

    /// A pending update a newer one supersedes at its commit, and one `DELETE` cancels before any worker
    /// took it, end there: their events are written there.
    @Test func aPendingDispatchSupersededOrCancelledIsAnEvent() async throws {
        try await DeliveryHarness.with { harness in
            try await harness.parts.dependencies.reloadEventInterest?()
            try await harness.register(token(0x85), device: "phone", tag: "order-5")
            // No engine runs: the updates stay pending.
            let first = try await harness.update(#""content_state":{"stage":"cooking"}"#, activityID: "order-5")
            let second = try await harness.update(#""content_state":{"stage":"ready"}"#, activityID: "order-5")
            let later = try await harness.update(#""content_state":{"stage":"late"}"#, activityID: "order-6")
            try await harness.api { client in
                let cancelled = try await client.execute(
                    uri: "/messages/live_activity/dispatches/\(later)", method: .delete,
                    headers: [.authorization: "Bearer \(harness.tenant.secret)"], body: nil)
                #expect(cancelled.status == .ok)
                let events = try await Self.all(client, key: harness.tenant.secret, count: 6)
                let types = events.map { $0["type"]?.stringValue ?? "" }
                #expect(
                    types.sorted() == [
                        "dispatch.accepted", "dispatch.accepted", "dispatch.accepted", "dispatch.cancelled", "dispatch.superseded",
                        "token.registered",
                    ])
                let superseded = try #require(events.first { $0["type"]?.stringValue == "dispatch.superseded" })
                #expect(superseded["dispatch_id"]?.stringValue == first.lowercased() && superseded["status"]?.stringValue == "superseded")
                #expect(superseded["sent"]?.numberLexeme == "0")
                let accepted = events.filter { $0["type"]?.stringValue == "dispatch.accepted" }.compactMap {
                    $0["dispatch_id"]?.stringValue
                }
                #expect(accepted == [first, second, later].map { $0.lowercased() })
                let cancelledEvent = try #require(events.first { $0["type"]?.stringValue == "dispatch.cancelled" })
                #expect(
                    cancelledEvent["dispatch_id"]?.stringValue == later.lowercased()
                        && cancelledEvent["activity_id"]?.stringValue == "order-6")
            }
        }
    }

    /// No reader and no endpoint: nothing is written.
    @Test func nothingIsWrittenWhileNoOneSubscribes() async throws {
        try await DeliveryHarness.with { harness in
            // The tenant's key has every permission: without events.read, no one reads the workspace's events.
            _ = try await harness.database.pool.query("UPDATE api_keys SET permissions = array_remove(permissions, 'events.read')")
            try await harness.parts.dependencies.reloadEventInterest?()
            try await harness.register(token(0x82), device: "phone", tag: "order-2")
            try await DeliveryServiceTests.running(harness.engine) {
                let id = try await harness.update(#""content_state":{"stage":"cooking"}"#, activityID: "order-2")
                try await DeliveryServiceTests.waitUntil("the dispatch is done", timeout: .seconds(20)) {
                    try await harness.dispatch(id).require("status", as: String.self) == "done"
                }
            }
            #expect(try await harness.database.count("SELECT count(*) FROM events") == 0)
        }
    }

    /// Tokens and device states: registered, rotated, a state, removed; and another workspace reads none
    /// of it.
    @Test func tokensAndStatesAreEventsOfTheirWorkspaceOnly() async throws {
        try await DeliveryHarness.with { harness in
            let other = try await harness.database.makeTenant()
            try await harness.parts.dependencies.reloadEventInterest?()
            try await harness.register(token(0x83), device: "phone", tag: "order-3")
            try await harness.register(token(0x84), device: "phone", tag: "order-3")
            try await harness.register(token(0x84), device: "phone", tag: "order-3")
            try await harness.api { client in
                let reported = try await client.reportState(harness.tenant, device: "phone", activity: "order-3", state: "active")
                #expect(reported.status == .created)
                let removed = try await client.post(
                    "/push_token_tag",
                    #"{"app_id":"\#(harness.tenant.app.identifier)","device_id":"phone","tag":"order-3","push_token":null}"#, key: nil)
                #expect(removed.status == .created)
                let events = try await Self.all(client, key: harness.tenant.secret, count: 4)
                #expect(
                    events.map { $0["type"]?.stringValue }
                        == ["token.registered", "token.rotated", "device.state", "token.removed"], "the same token again is no event")
                #expect(events[1]["previous_token"]?.stringValue == String(token(0x83).suffix(8)))
                #expect(events[1]["token"]?.stringValue == String(token(0x84).suffix(8)))
                #expect(events[2]["state"]?.stringValue == "active" && events[2]["device_id"]?.stringValue == "phone")
                #expect(events[3]["reason"]?.stringValue == "unregistered" && events[3]["token_kind"]?.stringValue == "update")
                #expect(try await Self.all(client, key: other.secret, count: 0).isEmpty)
            }
        }
    }

    /// An event whose transaction commits after a later one's is not passed over: neither is read until
    /// the older transaction is over, then both come, the older first.
    @Test func anEventCommittedLateIsNotSkipped() async throws {
        try await DeliveryHarness.with { harness in
            let workspace = harness.tenant.workspace.id
            let appID = harness.tenant.app.id
            let event = { @Sendable (n: Int) in
                OutgoingEvent(.deviceState, workspaceID: workspace, appID: appID, fields: ["n": .number(String(n))])
            }
            // The older transaction writes its event, then stays open until told to commit.
            let state = NIOLockedValueBox((inserted: false, commit: false))
            let pool = harness.database.pool
            let slow = Task {
                try await pool.transaction { connection in
                    try EventStatement.insert([event(1)], on: connection)
                    state.withLockedValue { $0.inserted = true }
                    while !state.withLockedValue({ $0.commit }) { usleep(10_000) }
                }
            }
            try await DeliveryServiceTests.waitUntil("the older transaction wrote its event") { state.withLockedValue { $0.inserted } }
            try await pool.transaction { try EventStatement.insert([event(2)], on: $0) }
            try await harness.api { client in
                let first = try await Self.page(client, key: harness.tenant.secret)
                #expect(first.events.isEmpty, "the later event waits for the older transaction")
                state.withLockedValue { $0.commit = true }
                try await slow.value
                var second: [JSONValue] = []
                var after = first.next
                try await DeliveryServiceTests.waitUntil("both events are readable", timeout: .seconds(60)) {
                    let page = try await Self.page(client, key: harness.tenant.secret, after: after)
                    second += page.events
                    after = page.next
                    return second.count >= 2
                }
                #expect(second.map { $0["n"]?.numberLexeme } == ["1", "2"], "the older transaction's event first")
                let third = try await Self.page(client, key: harness.tenant.secret, after: after)
                #expect(third.events.isEmpty && third.next == after)
            }
        }
    }

    @Test func aBadCursorOrTypeIsRefusedAndAKeyWithoutThePermissionGetsNothing() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let limited = try await database.makeTenant(permissions: [.liveActivityUpdate])
            try await TestGateway.app(database).test(.router) { client async throws in
                let bad = try await Self.page(client, key: tenant.secret, after: "yesterday", extra: "&type=push.maybe")
                #expect(bad.status == .badRequest)
                let denied = try await Self.page(client, key: limited.secret)
                #expect(denied.status == .forbidden)
            }
        }
    }
}
