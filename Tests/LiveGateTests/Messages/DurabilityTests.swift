import APNsCore
import Foundation
import HTTPTypes
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

@Suite("Accepted means durable", .heavy, .requiresPostgres)
struct DurabilityTests {
    /// Over a real socket, the moment each 201 arrives its dispatch must already be readable by a new
    /// statement (which sees only committed rows): the answer is never sent before the commit.
    @Test func every201sDispatchIsCommittedWhenTheAnswerArrives() async throws {
        try await TestDatabase.with(poolSize: 8) { database in
            let tenant = try await database.makeTenant()
            try await LiveGatewayServer.with(database: database) { baseURL in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for worker in 0..<4 {
                        group.addTask {
                            for sequence in 0..<15 {
                                let response = try await CurlHTTPClient.request(
                                    "POST", "\(baseURL)/messages/live_activity/update",
                                    headers: ["Authorization": "Bearer \(tenant.secret)", "Content-Type": "application/json"],
                                    body: Data(
                                        #"{"app_id":"\#(tenant.app.identifier)","activity_id":"m-\#(worker)","content_state":{"n":\#(sequence)}}"#
                                            .utf8))
                                #expect(response.status == 201)
                                let id = try #require(try JSONValue.parse(response.body)["dispatch_id"]?.stringValue)
                                let found = try await database.pool.query("SELECT count(*)::int AS n FROM dispatches WHERE id = $1", [id])
                                #expect(try found[0].require("n", as: Int.self) == 1, "dispatch \(id) not visible at 201")
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            #expect(try await database.count("SELECT count(*) FROM dispatches") == 60)
        }
    }

    /// Group commit puts concurrent requests in shared statements; each still gets its own row and answer.
    @Test func concurrentUpdatesEachGetTheirOwnDispatch() async throws {
        try await TestDatabase.with(poolSize: 4) { database in
            let tenant = try await database.makeTenant()
            try await database.registerToken(tenant, tag: "m-3", device: "d", token: "abcd")
            let ids = try await TestGateway.app(database).test(.router) { client async throws in
                try await withThrowingTaskGroup(of: (Int, String?, [String]).self) { group in
                    for index in 0..<64 {
                        group.addTask {
                            let response = try await client.post(
                                "/messages/live_activity/update",
                                #"{"app_id":"\#(tenant.app.identifier)","activity_id":"m-\#(index % 8)","content_state":{"i":\#(index)}}"#,
                                key: tenant.secret)
                            #expect(response.status == .created)
                            #expect(response.errors.isEmpty, "request \(index): \(response.errors)")
                            return (index, response.dispatchID, response.warnings)
                        }
                    }
                    return try await group.reduce(into: [(Int, String?, [String])]()) { $0.append($1) }
                }
            }
            #expect(Set(ids.compactMap(\.1)).count == 64)
            for (index, _, warnings) in ids {
                // Only tag m-3 has a device: the per-row token check must not mix rows up.
                #expect(warnings.isEmpty == (index % 8 == 3), "request \(index): \(warnings)")
            }
            let rows = try await database.pool.query(
                "SELECT id::text, payload FROM dispatches ORDER BY id")
            for row in rows {
                let id: String = try row.require("id")
                let entry = try #require(ids.first { $0.1 == id })
                #expect(try row.require("payload", as: String.self).contains(#""content-state":{"i":\#(entry.0)}"#))
            }
        }
    }
}
