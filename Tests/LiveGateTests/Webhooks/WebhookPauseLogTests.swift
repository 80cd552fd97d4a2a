import APNsCore
import Foundation
import HTTPTypes
import HummingbirdTesting
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

/// A webhook endpoint's pause and resumption in the message activity log: a receiver that keeps failing
/// past a one-second retry period gets its endpoint paused with an entry, and `POST /webhooks/{id}/resume`
/// writes its own; both name the endpoint by id and host, never by its whole URL or its secret.
@Suite("Webhook pauses in the activity log", .requiresPostgres)
struct WebhookPauseLogTests {
    /// The stored entries of the workspace's endpoints, oldest first.
    static func entries(_ harness: WebhookHarness) async throws -> PostgresRows {
        try await harness.database.pool.query(
            """
            SELECT type, message, app_id, details::text AS details FROM message_activity_log
            WHERE workspace_id = $1 AND type LIKE 'Webhook endpoint %' ORDER BY occurred_at, id
            """, [harness.tenant.workspace.id])
    }

    static func details(_ row: PostgresRow) throws -> JSONValue {
        try JSONValue.parse(try row.require("details", as: String.self))
    }

    @Test func aReceiverFailingPastTheRetryPeriodIsPausedWithAnEntryAndResumingWritesAnother() async throws {
        try await WebhookHarness.with { harness in
            try await WebhookReceiver.with { receiver, url in
                let (id, secret) = try await harness.endpoint(url, appID: harness.tenant.app.id)
                receiver.status = 503
                try await harness.insert(5)
                var settings = WebhookHarness.settings
                settings.retryPeriod = .seconds(1)
                try await harness.running([harness.sender(settings: settings)]) {
                    let deadline = ContinuousClock.now + .seconds(30)
                    while try await !harness.row(id).require("paused", as: Bool.self), ContinuousClock.now < deadline {
                        try await Task.sleep(for: .milliseconds(100))
                    }
                }
                let endpoint = try await harness.row(id)
                #expect(try endpoint.require("paused", as: Bool.self))
                let failures = try endpoint.require("failures", as: Int.self)
                #expect(failures >= 2, "it failed for a second before it was paused")

                let paused = try await Self.entries(harness)
                try #require(paused.count == 1)
                #expect(try paused[0].require("type", as: String.self) == "Webhook endpoint paused")
                #expect(try paused[0].decode("app_id", as: UUID.self) == harness.tenant.app.id)
                let details = try Self.details(paused[0])
                #expect(details["webhook_id"]?.stringValue == id.uuidString.lowercased())
                #expect(details["url_host"]?.stringValue == "127.0.0.1")
                #expect(details["failures"] == .number(String(failures)))
                #expect(details["last_error"]?.stringValue == "HTTP 503")
                #expect(details["failing_since"]?.stringValue?.hasSuffix("Z") == true)
                let message = try paused[0].require("message", as: String.self)
                #expect(message.hasPrefix("Webhook endpoint \(id.uuidString.lowercased()) to 127.0.0.1 paused: \(failures) batches"))
                for row in paused {
                    let text = try row.require("message", as: String.self) + (try row.require("details", as: String.self))
                    #expect(!text.contains(secret) && !text.contains(url), "neither the secret nor the whole URL: \(text)")
                }

                // Resumed through the API with a key of its own: the entry names the key.
                let (key, resumer) = try await harness.database.makeKey(
                    in: harness.tenant.workspace, permissions: [.webhooksManage, .messageActivityLogRead], name: "on call")
                try await TestGateway.app(harness.database).test(.router) { client in
                    let resumed = try await client.post("/webhooks/\(id.uuidString.lowercased())/resume", "", key: resumer)
                    #expect(resumed.status == .ok, "\(resumed.text)")
                    #expect(try resumed.json["paused"] == .bool(false))
                    // Not paused any more: resuming again only clears failures, and logs nothing.
                    let again = try await client.post("/webhooks/\(id.uuidString.lowercased())/resume", "", key: resumer)
                    #expect(again.status == .ok, "\(again.text)")

                    let logged = try await Self.entries(harness)
                    try #require(logged.count == 2)
                    #expect(try logged[1].require("type", as: String.self) == "Webhook endpoint resumed")
                    let resumedDetails = try Self.details(logged[1])
                    #expect(resumedDetails["webhook_id"]?.stringValue == id.uuidString.lowercased())
                    #expect(resumedDetails["url_host"]?.stringValue == "127.0.0.1")
                    #expect(resumedDetails["failures"] == .number(String(failures)), "what it had when it was paused")
                    #expect(resumedDetails["last_error"]?.stringValue == "HTTP 503")
                    #expect(resumedDetails["api_key_id"]?.stringValue == key.id.uuidString.lowercased())
                    #expect(try logged[1].require("message", as: String.self).contains("with the API key 'on call'"))

                    // The log's API answers both, newest first, with their details and the endpoint's app.
                    let log = try await client.execute(
                        uri: "/message_activity_log?type=Webhook%20endpoint%20resumed", method: .get, headers: .bearer(resumer))
                    #expect(log.status == .ok)
                    let entries = try #require(try log.json["entries"]?.arrayValue)
                    #expect(entries.count == 1)
                    #expect(entries.first?["app_id"]?.stringValue == harness.tenant.app.identifier)
                    #expect(entries.first?["details"] == resumedDetails)
                    let all = try await client.execute(uri: "/message_activity_log", method: .get, headers: .bearer(resumer))
                    #expect(
                        try all.json["entries"]?.arrayValue?.compactMap { $0["type"]?.stringValue }
                            == ["Webhook endpoint resumed", "Webhook endpoint paused"])
                }
            }
        }
    }

    /// An endpoint of every app has no app to be logged under: its entry has none (`app_id` `null` in
    /// the log's API), and its URL's user part, port, path and query stay out of it.
    @Test func anEndpointOfEveryAppIsLoggedWithoutAnApp() async throws {
        try await WebhookHarness.with { harness in
            let (id, _) = try await harness.endpoint("https://ops:hunter2@hooks.example.com:8443/in?token=abc123")
            try await harness.insert(1)
            let queue = PostgresWebhookQueue(pool: harness.database.pool)
            // Leasable once every transaction older than the event's has ended, on the whole server (other
            // tests' too): asked again until then.
            var leased: [LeasedWebhook] = []
            let deadline = ContinuousClock.now + .seconds(30)
            while leased.isEmpty, ContinuousClock.now < deadline {
                leased = try await queue.lease(worker: "sender-1", for: .seconds(5), limit: 1, excluding: [])
                if leased.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
            }
            try #require(leased.map(\.id) == [id])
            // No retry period at all: the first failure pauses it.
            let failure = try await queue.failed(
                id, worker: "sender-1", error: "HTTP 500: down", retryAfter: .seconds(1), retryPeriod: .zero)
            #expect(failure?.paused == true && failure?.failures == 1)

            let entries = try await Self.entries(harness)
            try #require(entries.count == 1)
            #expect(try entries[0].decode("app_id", as: UUID.self) == nil)
            let text = try entries[0].require("message", as: String.self) + (try entries[0].require("details", as: String.self))
            for secret in ["hunter2", "ops:", "8443", "token", "abc123", "/in"] {
                #expect(!text.contains(secret), "\(secret) is not logged: \(text)")
            }
            let since = try #require(try Self.details(entries[0])["failing_since"]?.stringValue)
            try await TestGateway.app(harness.database).test(.router) { client in
                let log = try await client.execute(uri: "/message_activity_log", method: .get, headers: .bearer(harness.tenant.secret))
                #expect(log.status == .ok)
                try expectJSON(
                    try #require(try log.json["entries"]?.arrayValue?.first?["details"]),
                    equals: """
                        {"webhook_id":"\(id.uuidString.lowercased())","url_host":"hooks.example.com","failures":1,
                         "failing_since":"\(since)",
                         "last_error":"HTTP 500: down"}
                        """)
                #expect(try log.json["entries"]?.arrayValue?.first?["app_id"] == .null)
            }
        }
    }
}
