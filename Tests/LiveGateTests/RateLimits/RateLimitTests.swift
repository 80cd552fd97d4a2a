import APNsCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import NIOConcurrencyHelpers
import TestSupport
import Testing

@Suite("Rate limits: per workspace, per clock hour, start and update together", .requiresPostgres)
struct RateLimitTests {
    /// 2026-11-22T15:59:58Z: two seconds before the hour turns.
    static let nearlyFour = Date(timeIntervalSince1970: 1_795_881_598)
    static let fourOClock: Int64 = 1_795_881_600

    static func update(_ tenant: Tenant, _ fields: String = #""content_state":{"n":1}"#) -> String {
        #"{"app_id":"\#(tenant.app.identifier)","activity_id":"game-42",\#(fields)}"#
    }

    static func headers(_ response: TestResponse) -> (limit: String?, remaining: String?, reset: String?) {
        (
            response.headers[HTTPField.Name("X-RateLimit-Limit")!], response.headers[HTTPField.Name("X-RateLimit-Remaining")!],
            response.headers[HTTPField.Name("X-RateLimit-Reset")!]
        )
    }

    /// A tenant whose workspace may make `limit` calls an hour, and a gateway whose clock the test moves.
    static func withLimit(
        _ limit: Int,
        _ body: @escaping @Sendable (Tenant, TestDatabase, NIOLockedValueBox<Date>, any TestClientProtocol) async throws -> Void
    ) async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant(rateLimitPerHour: limit)
            let now = NIOLockedValueBox(Self.nearlyFour)
            let gateway = TestGateway.app(
                database, configuration: .init(lookupCacheTimeToLive: .zero), clock: MessageClock(now: { now.withLockedValue { $0 } }))
            try await gateway.test(.router) { client in try await body(tenant, database, now, client) }
        }
    }

    @Test func theLimitIsExactAtTheBoundaryAndRollsOverWithTheHour() async throws {
        try await Self.withLimit(3) { tenant, database, now, client in
            for remaining in [2, 1, 0] {
                let response = try await client.post("/messages/live_activity/update", Self.update(tenant), key: tenant.secret)
                #expect(response.status == .created)
                let headers = Self.headers(response)
                #expect(headers.limit == "3")
                #expect(headers.remaining == String(remaining))
                #expect(headers.reset == String(Self.fourOClock))
            }
            let refused = try await client.post("/messages/live_activity/update", Self.update(tenant), key: tenant.secret)
            #expect(refused.status == .tooManyRequests)
            #expect(Self.headers(refused).limit == "3")
            #expect(Self.headers(refused).remaining == "0")
            #expect(Self.headers(refused).reset == String(Self.fourOClock))
            #expect(refused.headers[.retryAfter] == "2")
            #expect(refused.headers[HTTPField.Name("X-RateLimit-Retry-After")!] == "2")
            #expect(refused.headers[.contentType] == "application/json; charset=utf-8")
            #expect(
                try refused.json["message"]?.stringValue
                    == "Rate limit exceeded: this workspace may make 3 requests per hour to the message endpoints; retry after 2 seconds")
            #expect(try await database.count("SELECT count(*) FROM dispatches") == 3, "the refused call recorded nothing")

            // The hour turns: a fresh window.
            now.withLockedValue { $0 = $0.addingTimeInterval(2) }
            let next = try await client.post("/messages/live_activity/update", Self.update(tenant), key: tenant.secret)
            #expect(next.status == .created)
            #expect(Self.headers(next).remaining == "2")
            #expect(Self.headers(next).reset == String(Self.fourOClock + 3600))
            #expect(try await database.count("SELECT count(*) FROM dispatches") == 4)
        }
    }

    @Test func startAndUpdateShareOneWindow() async throws {
        try await Self.withLimit(2) { tenant, database, _, client in
            let start = #"""
                {"app_id":"\#(tenant.app.identifier)","activity_id":"m-1","activity_attributes_type":"MatchAttributes",
                 "activity_attributes":{},"content_state":{},"external_user_ids":["fan-1"],
                 "notification":{"alert":{"title":"Kick-off","body":"A v B"}}}
                """#
            let first = try await client.post("/messages/live_activity/start", start, key: tenant.secret)
            #expect(first.status == .created)
            #expect(Self.headers(first).remaining == "1")
            let second = try await client.post("/messages/live_activity/update", Self.update(tenant), key: tenant.secret)
            #expect(Self.headers(second).remaining == "0")
            #expect(try await client.post("/messages/live_activity/start", start, key: tenant.secret).status == .tooManyRequests)
            #expect(
                try await client.post("/messages/live_activity/update", Self.update(tenant), key: tenant.secret).status == .tooManyRequests)
        }
    }

    @Test func everyAnswerOnceTheKeyIsKnownCarriesTheHeaders() async throws {
        try await Self.withLimit(5) { tenant, _, _, client in
            let invalid = try await client.post("/messages/live_activity/update", #"{"app_id":"x"}"#, key: tenant.secret)
            #expect(invalid.status == .badRequest)
            #expect(Self.headers(invalid).remaining == "4", "a refused call counts too")
            let notJSON = try await client.post("/messages/live_activity/update", "{", key: tenant.secret)
            #expect(notJSON.status == .badRequest)
            #expect(Self.headers(notJSON).remaining == "3")
            // Without a valid key there is no workspace to count against.
            let unauthenticated = try await client.post("/messages/live_activity/update", Self.update(tenant), key: "lg_wrong")
            #expect(unauthenticated.status == .unauthorized)
            #expect(Self.headers(unauthenticated).limit == nil)
        }
    }

    @Test func workspacesHaveTheirOwnWindows() async throws {
        try await Self.withLimit(1) { tenant, database, _, client in
            let other = try await database.makeTenant(rateLimitPerHour: 1)
            #expect(try await client.post("/messages/live_activity/update", Self.update(tenant), key: tenant.secret).status == .created)
            #expect(try await client.post("/messages/live_activity/update", Self.update(other), key: other.secret).status == .created)
            #expect(
                try await client.post("/messages/live_activity/update", Self.update(tenant), key: tenant.secret).status == .tooManyRequests)
        }
    }

    @Test func aRaisedLimitIsSeenWithinASecond() async throws {
        try await Self.withLimit(1) { tenant, database, _, client in
            #expect(try await client.post("/messages/live_activity/update", Self.update(tenant), key: tenant.secret).status == .created)
            #expect(
                try await client.post("/messages/live_activity/update", Self.update(tenant), key: tenant.secret).status == .tooManyRequests)
            _ = try await database.tenancy.setRateLimit(workspaceID: tenant.workspace.id, rateLimitPerHour: 2)
            // A spent window is believed spent for a second before the database is asked again.
            try await Task.sleep(for: .milliseconds(1_100))
            let raised = try await client.post("/messages/live_activity/update", Self.update(tenant), key: tenant.secret)
            #expect(raised.status == .created)
            #expect(Self.headers(raised).limit == "2")
            #expect(Self.headers(raised).remaining == "0")
        }
    }
}
