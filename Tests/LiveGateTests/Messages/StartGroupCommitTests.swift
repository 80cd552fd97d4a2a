import APNsCore
import Foundation
import HTTPTypes
import HummingbirdTesting
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
@testable import LiveGateStore
import PostgresClient
import TestSupport
import Testing

import LiveGate

/// Starts to users share group commit's transactions: each still resolves its own users, in its own
/// workspace, to tokens of its own type, and gets its own answer.
@Suite("Starts to users in shared transactions", .requiresPostgres)
struct StartGroupCommitTests {
    static func body(_ tenant: Tenant, activity: String, type: String, users: [String]) -> String {
        let named = users.map { "\"\($0)\"" }.joined(separator: ",")
        return #"{"app_id":"\#(tenant.app.identifier)","activity_id":"\#(activity)","activity_attributes_type":"\#(type)","#
            + #""activity_attributes":{},"content_state":{"n":1},"notification":{"alert":{"title":"t","body":"b"}},"#
            + #""external_user_ids":[\#(named)]}"#
    }

    /// Two workspaces with a user `fan-1` each, two attributes types, and users without a token of a
    /// type or not there at all: 48 concurrent starts, gathered into fewer transactions than starts.
    @Test func concurrentStartsEachResolveTheirOwnUsers() async throws {
        try await TestDatabase.with(poolSize: 4) { database in
            let one = try await database.makeTenant()
            let two = try await database.makeTenant()
            try await database.registerPushToStart(one, type: "Order", device: "phone", token: "a1a1", externalID: "fan-1")
            try await database.registerPushToStart(one, type: "Order", device: "watch", token: "a2a2", externalID: "fan-1")
            try await database.registerPushToStart(one, type: "Ride", device: "phone", token: "a3a3", externalID: "fan-1")
            try await database.registerPushToStart(one, type: "Ride", device: "tablet", token: "b1b1", externalID: "fan-2")
            try await database.registerPushToStart(two, type: "Order", device: "phone", token: "c1c1", externalID: "fan-1")
            struct Case: Sendable {
                let tenant: Tenant
                let type: String
                let users: [String]
                let tokens: [String]
                let errors: [String]
            }
            let cases = [
                Case(tenant: one, type: "Order", users: ["fan-1"], tokens: ["a1a1", "a2a2"], errors: []),
                Case(tenant: one, type: "Ride", users: ["fan-1", "fan-2"], tokens: ["a3a3", "b1b1"], errors: []),
                Case(
                    tenant: one, type: "Order", users: ["fan-2", "ghost"], tokens: [],
                    errors: ["external_id 'ghost' was not found", "external_id 'fan-2' has no push-to-start token for Order"]),
                Case(
                    tenant: two, type: "Order", users: ["fan-1", "fan-2"], tokens: ["c1c1"],
                    errors: ["external_id 'fan-2' was not found"]),
            ]
            let answers = try await TestGateway.app(database).test(.router) { client async throws in
                try await withThrowingTaskGroup(of: (Int, String?, [String]).self) { group in
                    for index in 0..<48 {
                        let test = cases[index % cases.count]
                        group.addTask {
                            let response = try await client.post(
                                "/messages/live_activity/start",
                                Self.body(test.tenant, activity: "order-\(index)", type: test.type, users: test.users),
                                key: test.tenant.secret)
                            #expect(response.status == .created, "start \(index): \(response.text)")
                            return (index, response.dispatchID, response.errors)
                        }
                    }
                    return try await group.reduce(into: [(Int, String?, [String])]()) { $0.append($1) }
                }
            }
            #expect(answers.count == 48)
            for (index, dispatchID, errors) in answers {
                let test = cases[index % cases.count]
                #expect(errors == test.errors, "start \(index)")
                let id = try #require(dispatchID)
                let targets = try await database.pool.query(
                    "SELECT push_token FROM dispatch_targets WHERE dispatch_id = $1 ORDER BY push_token", [id])
                #expect(try targets.map { try $0.require("push_token", as: String.self) } == test.tokens, "start \(index)")
                let row = try await database.pool.query(
                    "SELECT activity_id, workspace_id::text, attributes_type, status FROM dispatches WHERE id = $1", [id])
                #expect(try row[0].require("activity_id", as: String.self) == "order-\(index)")
                #expect(try row[0].require("workspace_id", as: String.self) == test.tenant.workspace.id.uuidString.lowercased())
                #expect(try row[0].require("attributes_type", as: String.self) == test.type)
                #expect(try row[0].require("status", as: String.self) == "pending")
            }
            // A transaction's rows share its now(): fewer distinct times than starts, some shared.
            #expect(try await database.count("SELECT count(DISTINCT created_at) FROM dispatches WHERE event = 'start'") < 48)
        }
    }

    /// One start of a batch that cannot be written (its payload over the table's 4 KB check, which the
    /// API never lets through) fails alone: the batch is tried start by start, and the others commit
    /// with their targets.
    @Test func aStartThatCannotBeWrittenFailsAloneInItsBatch() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await database.registerPushToStart(tenant, type: "Order", device: "phone", token: "a1a1", externalID: "fan-1")
            func start(_ activity: String, payloadBytes: Int = 64) -> PendingStart {
                PendingStart(
                    dispatch: Dispatch(
                        workspaceID: tenant.workspace.id, appID: tenant.app.id, event: .start, activityID: activity, externalID: nil,
                        payload: Array(#"{"aps":{"event":"start","pad":"\#(String(repeating: "x", count: payloadBytes))"}}"#.utf8),
                        priority: .immediate, expiresAt: Date() + 3600),
                    targeting: StartTargeting(attributesType: "Order", users: [.externalID("fan-1"), .externalID("ghost")]))
            }
            let batch = [start("order-1"), start("order-2", payloadBytes: 5000), start("order-3")]
            let results = await PostgresDispatchStore.writeStarts(batch, pool: database.pool)
            #expect(results.count == 3)
            for index in [0, 2] {
                let resolution = try results[index].get()
                #expect(resolution == StartResolution(targetCount: 1, unknownUsers: [.externalID("ghost")], usersWithoutToken: []))
            }
            #expect((try? results[1].get()) == nil)
            let written = try await database.pool.query(
                "SELECT d.activity_id, count(t.id)::int AS targets FROM dispatches d LEFT JOIN dispatch_targets t ON t.dispatch_id = d.id"
                    + " GROUP BY d.activity_id ORDER BY d.activity_id")
            #expect(try written.map { try $0.require("activity_id", as: String.self) } == ["order-1", "order-3"])
            #expect(try written.map { try $0.require("targets", as: Int.self) } == [1, 1])
        }
    }
}
