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
import PostgresClient
import TestSupport
import Testing

@Suite("Idempotency-Key on message endpoints", .requiresPostgres)
struct IdempotencyTests {
    static let update = "/messages/live_activity/update"
    static let key = HTTPField.Name("Idempotency-Key")!

    func body(_ tenant: Tenant, _ description: String) -> String {
        #"{"app_id":"\#(tenant.app.identifier)","activity_id":"match-1","content_state":{"score":"\#(description)"}}"#
    }

    @Test func sameKeyAndBodyReplaysTheFirstAnswerWithoutASecondDispatch() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                let first = try await client.post(Self.update, body(tenant, "1-0"), key: tenant.secret, headers: [Self.key: "retry-me"])
                #expect(first.status == .created)
                #expect(first.headers[.init("Idempotent-Replayed")!] == nil)
                let again = try await client.post(Self.update, body(tenant, "1-0"), key: tenant.secret, headers: [Self.key: "retry-me"])
                #expect(again.status == .created)
                #expect(again.text == first.text)
                #expect(again.headers[.init("Idempotent-Replayed")!] == "true")
            }
            #expect(try await database.count("SELECT count(*) FROM dispatches") == 1)
        }
    }

    @Test func sameKeyWithAnotherBodyIs409AndCommitsNothing() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                _ = try await client.post(Self.update, body(tenant, "1-0"), key: tenant.secret, headers: [Self.key: "k1"])
                let reused = try await client.post(Self.update, body(tenant, "2-0"), key: tenant.secret, headers: [Self.key: "k1"])
                #expect(reused.status == .conflict)
                #expect(
                    reused.text
                        == #"{"errors":["send a new Idempotency-Key for a new request; a key is remembered for 24 hours"],"message":"This Idempotency-Key was already used with a different request"}"#
                )
                // The same key on another endpoint is another request too.
                let elsewhere = try await client.post(
                    "/messages/live_activity/start", body(tenant, "1-0"), key: tenant.secret, headers: [Self.key: "k1"])
                #expect(elsewhere.status == .badRequest)  // invalid start body: refused before the key is looked at
            }
            #expect(try await database.count("SELECT count(*) FROM dispatches") == 1)
        }
    }

    @Test func keysAreScopedToTheWorkspace() async throws {
        try await TestDatabase.with { database in
            let one = try await database.makeTenant()
            let two = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                #expect(
                    try await client.post(Self.update, body(one, "x"), key: one.secret, headers: [Self.key: "shared"]).status == .created)
                let other = try await client.post(Self.update, body(two, "x"), key: two.secret, headers: [Self.key: "shared"])
                #expect(other.status == .created)
                #expect(other.headers[.init("Idempotent-Replayed")!] == nil)
            }
            #expect(try await database.count("SELECT count(*) FROM dispatches") == 2)
        }
    }

    @Test func aKeyOlderThan24HoursStartsANewRequest() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                let first = try await client.post(Self.update, body(tenant, "1-0"), key: tenant.secret, headers: [Self.key: "old"])
                try await database.pool.query("UPDATE idempotency_keys SET created_at = now() - interval '24 hours 1 minute'")
                let later = try await client.post(Self.update, body(tenant, "2-0"), key: tenant.secret, headers: [Self.key: "old"])
                #expect(later.status == .created)
                #expect(later.dispatchID != first.dispatchID)
            }
            #expect(try await database.count("SELECT count(*) FROM dispatches") == 2)
        }
    }

    @Test func concurrentRetriesCommitOnce() async throws {
        try await TestDatabase.with(poolSize: 8) { database in
            let tenant = try await database.makeTenant()
            let text = body(tenant, "3-1")
            let answers = try await TestGateway.app(database).test(.router) { client async throws in
                try await withThrowingTaskGroup(of: String.self) { group in
                    for _ in 0..<8 {
                        group.addTask {
                            let response = try await client.post(Self.update, text, key: tenant.secret, headers: [Self.key: "burst"])
                            return "\(response.status.code) \(response.text)"
                        }
                    }
                    return try await group.reduce(into: Set<String>()) { $0.insert($1) }
                }
            }
            #expect(answers.count == 1, "\(answers)")
            #expect(answers.first?.hasPrefix("201 ") == true)
            #expect(try await database.count("SELECT count(*) FROM dispatches") == 1)
        }
    }

    @Test func startsAreIdempotentToo() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let start =
                #"{"app_id":"\#(tenant.app.identifier)","activity_id":"a","activity_attributes_type":"T","activity_attributes":{},"content_state":{},"notification":{"alert":{"title":"t","body":"b"}},"external_id":"nobody"}"#
            try await TestGateway.app(database).test(.router) { client async throws in
                let first = try await client.post("/messages/live_activity/start", start, key: tenant.secret, headers: [Self.key: "s"])
                let again = try await client.post("/messages/live_activity/start", start, key: tenant.secret, headers: [Self.key: "s"])
                #expect(first.status == .created)
                #expect(again.text == first.text)
                #expect(first.errors == ["external_id 'nobody' was not found"])
            }
            #expect(try await database.count("SELECT count(*) FROM dispatches") == 1)
        }
    }

    @Test(arguments: ["", String(repeating: "k", count: 256)])
    func anUnusableKeyIs400(key: String) async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                let response = try await client.post(Self.update, body(tenant, "1"), key: tenant.secret, headers: [Self.key: key])
                #expect(response.status == .badRequest)
                #expect(try response.json["message"]?.stringValue == "Invalid Idempotency-Key: give 1 to 255 bytes, such as a UUID")
            }
            #expect(try await database.count("SELECT count(*) FROM dispatches") == 0)
        }
    }
}

@Suite("Expired idempotency keys are deleted", .requiresPostgres)
struct IdempotencyKeyPurgeTests {
    @Test func onlyKeysPastTheirDayAreDeleted() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                for key in ["old-1", "old-2", "fresh"] {
                    let body = #"{"app_id":"\#(tenant.app.identifier)","activity_id":"a","content_state":{"k":"\#(key)"}}"#
                    _ = try await client.post(
                        "/messages/live_activity/update", body, key: tenant.secret, headers: [IdempotencyTests.key: key])
                }
            }
            try await database.pool.query(
                "UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE idempotency_key LIKE 'old-%'")
            #expect(try await Housekeeping(pool: database.pool, batchSize: 1).purgeExpiredIdempotencyKeys() == 2)
            let left = try await database.pool.query("SELECT idempotency_key FROM idempotency_keys")
            #expect(try left.map { try $0.require("idempotency_key", as: String.self) } == ["fresh"])
            // The dispatches themselves are kept: only the remembered answers go.
            #expect(try await database.count("SELECT count(*) FROM dispatches") == 3)
        }
    }
}
