import APNsCore
import Foundation
import HTTPTypes
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

/// `/live_activity/priority_budget`: an app's hourly priority budget read, set and turned off by API,
/// what is refused and to whom, and the activity resource that shows each hour's count against it.
@Suite("Priority budget routes", .requiresPostgres)
struct PriorityBudgetRoutesTests {
    static let path = "/live_activity/priority_budget"

    @Test func aBudgetIsSetReadAndTurnedOff() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let app = tenant.app.identifier
            try await TestGateway.app(database).test(.router) { client async throws in
                let none = try await ActivityTypeRoutesTests.call(client, .get, "\(Self.path)?app_id=\(app)", key: tenant.secret)
                #expect(none.status == .ok)
                try expectJSON(
                    none.json,
                    equals:
                        #"{"app_id":"\#(app)","priority_budget_per_hour":null,"frequent_priority_budget_per_hour":null,"message":"success"}"#
                )

                let set = try await ActivityTypeRoutesTests.call(
                    client, .put, Self.path, #"{"app_id":"\#(app)","priority_budget_per_hour":40,"frequent_priority_budget_per_hour":120}"#,
                    key: tenant.secret)
                #expect(set.status == .ok, "\(set.text)")
                try expectJSON(
                    set.json,
                    equals:
                        #"{"app_id":"\#(app)","priority_budget_per_hour":40,"frequent_priority_budget_per_hour":120,"message":"success"}"#)
                #expect(
                    try await database.tenancy.app(identifier: app)?.priorityBudget == PriorityBudget(perHour: 40, frequentPerHour: 120))
                let read = try await ActivityTypeRoutesTests.call(client, .get, "\(Self.path)?app_id=\(app)", key: tenant.secret)
                #expect(try read.json["priority_budget_per_hour"]?.serialized().asString == "40", "read at once, not from a cache")

                let off = try await ActivityTypeRoutesTests.call(
                    client, .put, Self.path, #"{"app_id":"\#(app)","priority_budget_per_hour":null}"#, key: tenant.secret)
                #expect(off.status == .ok, "\(off.text)")
                #expect(try off.json["priority_budget_per_hour"]?.isNull == true)
                #expect(try await database.tenancy.app(identifier: app)?.priorityBudget == nil)
            }
        }
    }

    /// JSON Schema's integer, and client libraries that keep every number a double: `40.0` is 40.
    @Test(arguments: ["40.0", "4e1", "4.0E+1"])
    func aWholeNumberWrittenWithAFractionOrExponentIsTheSameBudget(written: String) async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let app = tenant.app.identifier
            try await TestGateway.app(database).test(.router) { client async throws in
                let set = try await ActivityTypeRoutesTests.call(
                    client, .put, Self.path, #"{"app_id":"\#(app)","priority_budget_per_hour":\#(written)}"#, key: tenant.secret)
                #expect(set.status == .ok, "\(set.text)")
                #expect(try set.json["priority_budget_per_hour"]?.serialized().asString == "40")
                #expect(try await database.tenancy.app(identifier: app)?.priorityBudget == PriorityBudget(perHour: 40))
            }
        }
    }

    @Test(arguments: [
        (#""priority_budget_per_hour":0"#, "priority_budget_per_hour must be a whole number from 1 to 100000, or null"),
        (#""priority_budget_per_hour":2.5"#, "priority_budget_per_hour must be a whole number from 1 to 100000, or null"),
        (#""priority_budget_per_hour":"10""#, "priority_budget_per_hour must be a number, got string"),
        (
            #""frequent_priority_budget_per_hour":10"#,
            "priority_budget_per_hour is required: a whole number of updates per hour, or null to turn the budget off"
        ),
        (
            #""priority_budget_per_hour":10,"frequent_priority_budget_per_hour":5"#,
            "frequent_priority_budget_per_hour must be at least priority_budget_per_hour: iOS gives those devices more, not less"
        ),
        (
            #""priority_budget_per_hour":null,"frequent_priority_budget_per_hour":5"#,
            "frequent_priority_budget_per_hour needs priority_budget_per_hour: it only raises the budget for some devices"
        ),
    ])
    func anUnusableBudgetIsRefusedSayingWhy(fields: String, problem: String) async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                let refused = try await ActivityTypeRoutesTests.call(
                    client, .put, Self.path, #"{"app_id":"\#(tenant.app.identifier)",\#(fields)}"#, key: tenant.secret)
                #expect(refused.status == .badRequest)
                #expect(refused.errors == [problem], "\(refused.text)")
                #expect(try await database.tenancy.app(identifier: tenant.app.identifier)?.priorityBudget == nil)
            }
        }
    }

    @Test func anotherWorkspacesAppAndAKeyWithoutThePermissionGetNothing() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let other = try await database.makeTenant()
            let limited = try await database.makeTenant(permissions: [.liveActivityUpdate, .liveActivityRead])
            try await TestGateway.app(database).test(.router) { client async throws in
                let foreign = try await ActivityTypeRoutesTests.call(
                    client, .put, Self.path, #"{"app_id":"\#(other.app.identifier)","priority_budget_per_hour":5}"#, key: tenant.secret)
                #expect(foreign.status == .badRequest)
                #expect(foreign.errors == ["no app has app_id '\(other.app.identifier)' in this API key's workspace"])
                let denied = try await ActivityTypeRoutesTests.call(
                    client, .get, "\(Self.path)?app_id=\(limited.app.identifier)", key: limited.secret)
                #expect(denied.status == .forbidden)
                #expect(denied.errors == ["this API key does not have the live_activity.priority_budget permission"])
                #expect(try await database.tenancy.app(identifier: other.app.identifier)?.priorityBudget == nil)
            }
        }
    }

    /// The activity resource shows the app's budget and each hour's priority-10 count, lowered and
    /// throttled updates, newest first.
    @Test func theActivityResourceShowsEachHoursCountAgainstTheBudget() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            _ = try await database.tenancy.setPriorityBudget(
                appIdentifier: tenant.app.identifier, budget: PriorityBudget(perHour: 5, frequentPerHour: 20))
            try await database.insertActivityTokens([String(repeating: "ab", count: 32)], app: tenant.app, activityID: "match-9")
            _ = try await database.pool.query(
                """
                INSERT INTO activity_priority_hours (app_id, activity_id, hour, sent_high, lowered, throttled) VALUES
                    ($1, 'match-9', date_trunc('hour', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '5 hours', 5, 7, 0),
                    ($1, 'match-9', date_trunc('hour', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', 3, 0, 2),
                    ($1, 'match-9', now() - interval '3 days', 9, 9, 9)
                """, [tenant.app.id])
            try await TestGateway.app(database).test(.router) { client async throws in
                let resource = try await ActivityTypeRoutesTests.call(
                    client, .get, "/live_activity/activities/match-9?app_id=\(tenant.app.identifier)", key: tenant.secret)
                #expect(resource.status == .ok, "\(resource.text)")
                try expectJSON(try #require(resource.json["priority_budget"]), equals: #"{"per_hour":5,"frequent_per_hour":20}"#)
                let hours = try #require(try resource.json["priority_hours"]?.arrayValue)
                #expect(hours.count == 2, "only the last day's")
                #expect(hours.first?["priority_10"]?.numberLexeme == "3" && hours.first?["throttled"]?.numberLexeme == "2")
                #expect(hours.last?["priority_10"]?.numberLexeme == "5" && hours.last?["lowered"]?.numberLexeme == "7")
            }
        }
    }
}
