import Foundation
import LiveGateDomain
import LiveGateStore
import TestSupport
import Testing

/// `livegate app set-priority-budget`: an operator sets, changes and turns off an app's budget.
@Suite("livegate app set-priority-budget", .requiresPostgres)
struct PriorityBudgetCommandTests {
    @Test func theBudgetIsSetAndTurnedOff() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let app = tenant.app.identifier
            let url = database.connectionString
            let set = try await LiveGateBinary.run(
                ["app", "set-priority-budget", app, "--per-hour", "30", "--frequent-per-hour", "90"], databaseURL: url)
            #expect(set.status == 0, "\(set.stderr)")
            #expect(
                set.stdout.contains("holds each activity to 30 priority-10 updates an hour (90 on devices that allow frequent updates)"))
            #expect(set.lastLine == app)
            #expect(try await database.tenancy.app(identifier: app)?.priorityBudget == PriorityBudget(perHour: 30, frequentPerHour: 90))

            let off = try await LiveGateBinary.run(["app", "set-priority-budget", app, "--off"], databaseURL: url)
            #expect(off.status == 0, "\(off.stderr)")
            #expect(off.stdout.contains("has no priority budget"))
            #expect(try await database.tenancy.app(identifier: app)?.priorityBudget == nil)
        }
    }

    @Test(arguments: [
        (["--per-hour", "0"], "--per-hour must be from 1 to 100000"),
        (["--per-hour", "10", "--frequent-per-hour", "5"], "--frequent-per-hour must be at least --per-hour"),
        (["--off", "--per-hour", "5"], "--off takes no --per-hour or --frequent-per-hour"),
        ([], "give --per-hour N, or --off"),
    ])
    func whatCannotBeABudgetIsRefused(arguments: [String], problem: String) async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let refused = try await LiveGateBinary.run(
                ["app", "set-priority-budget", tenant.app.identifier] + arguments, databaseURL: database.connectionString)
            #expect(refused.status != 0)
            #expect(refused.stderr.contains(problem), "\(refused.stderr)")
        }
    }

    @Test func anUnknownAppIsSaidSo() async throws {
        try await TestDatabase.with { database in
            let unknown = try await LiveGateBinary.run(
                ["app", "set-priority-budget", "nope", "--per-hour", "5"], databaseURL: database.connectionString)
            #expect(unknown.status != 0)
            #expect(unknown.stderr.contains("no app has app_id 'nope'"))
        }
    }
}
