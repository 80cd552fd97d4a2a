import APNsCore
import Foundation
import HTTPTypes
import HummingbirdTesting
import LiveGateAPI
import LiveGateDomain
import NIOCore
import PostgresClient
import TestSupport
import Testing

/// `/webhooks`: endpoints made, listed, read, deleted and resumed, each workspace only its own.
@Suite("Webhook endpoints API", .requiresPostgres)
struct WebhookAPITests {
    @Test func anEndpointIsMadeListedReadResumedAndDeleted() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client in
                let made = try await client.post(
                    "/webhooks",
                    #"{"url":"https://hooks.example.com/livegate","events":["push.sent","dispatch.done"],"app_id":"\#(tenant.app.identifier)"}"#,
                    key: tenant.secret)
                #expect(made.status == .created, "\(made.text)")
                let body = try made.json
                let id = try #require(body["webhook_id"]?.stringValue)
                let secret = try #require(body["secret"]?.stringValue)
                #expect(secret.count == 64 && secret.allSatisfy(\.isHexDigit))
                #expect(body["url"]?.stringValue == "https://hooks.example.com/livegate")
                #expect(body["events"] == .array([.string("push.sent"), .string("dispatch.done")]))
                #expect(body["app_id"]?.stringValue == tenant.app.identifier)
                #expect(body["message"]?.stringValue == "success")

                let list = try await client.execute(uri: "/webhooks", method: .get, headers: .bearer(tenant.secret))
                #expect(list.status == .ok)
                let entries = try list.json["webhooks"]?.arrayValue ?? []
                #expect(entries.count == 1)
                let entry = try #require(entries.first)
                #expect(entry["webhook_id"]?.stringValue == id)
                #expect(entry["secret"] == nil, "the secret is shown once")
                #expect(entry["paused"] == .bool(false) && entry["paused_at"] == .null)
                #expect(entry["failures"] == .number("0") && entry["delivered_events"] == .number("0"))
                #expect(entry["lag_seconds"] == .number("0.000"))
                #expect(entry["created_at"]?.stringValue != nil && entry["last_error"] == .null)

                let read = try await client.execute(uri: "/webhooks/\(id)", method: .get, headers: .bearer(tenant.secret))
                #expect(read.status == .ok)
                #expect(try read.json["webhook_id"]?.stringValue == id)

                try await database.pool.query(
                    "UPDATE webhook_endpoints SET paused_at = now(), failures = 9, failing_since = now() WHERE id = $1::uuid", [id])
                let paused = try await client.execute(uri: "/webhooks/\(id)", method: .get, headers: .bearer(tenant.secret))
                #expect(try paused.json["paused"] == .bool(true))
                let resumed = try await client.post("/webhooks/\(id)/resume", "", key: tenant.secret)
                #expect(resumed.status == .ok, "\(resumed.text)")
                let resumedBody = try resumed.json
                #expect(resumedBody["paused"] == .bool(false) && resumedBody["failures"] == .number("0"))

                let deleted = try await client.execute(uri: "/webhooks/\(id)", method: .delete, headers: .bearer(tenant.secret))
                #expect(deleted.status == .ok)
                let gone = try await client.execute(uri: "/webhooks/\(id)", method: .get, headers: .bearer(tenant.secret))
                #expect(gone.status == .notFound)
            }
        }
    }

    @Test func badBodiesAreRefusedNamingEachProblem() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client in
                let unknown = try await client.post(
                    "/webhooks", #"{"url":"https://a.example.com","events":["push.sent","push.bounced","nope"]}"#, key: tenant.secret)
                #expect(unknown.status == .badRequest)
                #expect(unknown.errors.count == 2)
                #expect(unknown.errors.contains { $0.contains("'push.bounced'") } && unknown.errors.contains { $0.contains("'nope'") })

                for body in [
                    #"{"url":"ftp://a.example.com","events":["push.sent"]}"#, #"{"url":"http://a.example.com","events":["push.sent"]}"#,
                    #"{"url":"not a url","events":["push.sent"]}"#, #"{"events":["push.sent"]}"#,
                    #"{"url":"https://a.example.com","events":[]}"#, #"{"url":"https://a.example.com"}"#,
                ] {
                    let refused = try await client.post("/webhooks", body, key: tenant.secret)
                    #expect(refused.status == .badRequest, "\(body): \(refused.text)")
                    #expect(!refused.errors.isEmpty)
                }
                let otherWorkspace = try await database.makeTenant()
                let foreignApp = try await client.post(
                    "/webhooks", #"{"url":"https://a.example.com","events":["push.sent"],"app_id":"\#(otherWorkspace.app.identifier)"}"#,
                    key: tenant.secret)
                #expect(foreignApp.status == .badRequest, "\(foreignApp.text)")
                // Loopback receivers may be plain http (local development, tests).
                let local = try await client.post(
                    "/webhooks", #"{"url":"http://127.0.0.1:9/hook","events":["push.sent"]}"#, key: tenant.secret)
                #expect(local.status == .created)
            }
        }
    }

    @Test func aKeyWithoutThePermissionIsRefusedAndOtherWorkspacesEndpointsAreNotFound() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let other = try await database.makeTenant()
            let (_, limited) = try await database.makeKey(in: tenant.workspace, permissions: [.liveActivityUpdate])
            try await TestGateway.app(database).test(.router) { client in
                let denied = try await client.post(
                    "/webhooks", #"{"url":"https://a.example.com","events":["push.sent"]}"#, key: limited)
                #expect(denied.status == .forbidden)
                #expect(try await client.execute(uri: "/webhooks", method: .get, headers: .bearer(limited)).status == .forbidden)

                let made = try await client.post("/webhooks", #"{"url":"https://a.example.com","events":["push.sent"]}"#, key: other.secret)
                let id = try #require(try made.json["webhook_id"]?.stringValue)
                #expect(try await client.execute(uri: "/webhooks/\(id)", method: .get, headers: .bearer(tenant.secret)).status == .notFound)
                #expect(
                    try await client.execute(uri: "/webhooks/\(id)", method: .delete, headers: .bearer(tenant.secret)).status == .notFound)
                #expect(try await client.post("/webhooks/\(id)/resume", "", key: tenant.secret).status == .notFound)
                let list = try await client.execute(uri: "/webhooks", method: .get, headers: .bearer(tenant.secret))
                #expect(try list.json["webhooks"] == .array([]))
                #expect(try await client.execute(uri: "/webhooks/\(id)", method: .get, headers: .bearer(other.secret)).status == .ok)
            }
        }
    }
}
