import ArgumentParser
import LiveGateDomain
import LiveGateStore

/// `livegate app set-priority-budget`: an app's hourly priority budget, as
/// `PUT /live_activity/priority_budget` sets it.
struct SetPriorityBudget: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-priority-budget",
        abstract: "Hold each of an app's activities to N priority-10 updates an hour; the rest go at priority 5.",
        discussion: """
            iOS throttles an app's Live Activity updates past an hourly budget of priority-10 pushes (larger \
            when the user allows frequent updates) and shows nothing of them, while APNs still answers 200. \
            With a budget, updates past it go at priority 5, which iOS does not hold against it; an end and \
            an update with an alert keep priority 10. --frequent-per-hour is the budget for devices whose app \
            reported frequent updates allowed. --off goes back to every update at the priority it asks for. \
            Gateways apply a change within LIVEGATE_LOOKUP_CACHE_SECONDS.
            """)

    @Argument(help: "The app identifier (app_id).") var appId: String
    @Option(help: "Priority-10 updates an activity may get an hour.") var perHour: Int?
    @Option(help: "The same for devices that allow frequent updates (at least --per-hour).") var frequentPerHour: Int?
    @Flag(help: "Turn the budget off.") var off = false

    func validate() throws {
        let range = 1...PriorityBudget.maximumPerHour
        if off {
            guard perHour == nil, frequentPerHour == nil else { throw ValidationError("--off takes no --per-hour or --frequent-per-hour") }
            return
        }
        guard let perHour else { throw ValidationError("give --per-hour N, or --off") }
        guard range.contains(perHour) else { throw ValidationError("--per-hour must be from 1 to \(range.upperBound)") }
        if let frequentPerHour {
            guard range.contains(frequentPerHour) else {
                throw ValidationError("--frequent-per-hour must be from 1 to \(range.upperBound)")
            }
            guard frequentPerHour >= perHour else {
                throw ValidationError("--frequent-per-hour must be at least --per-hour: iOS gives those devices more, not less")
            }
        }
    }

    func run() async throws {
        let budget = perHour.flatMap { PriorityBudget(perHour: $0, frequentPerHour: frequentPerHour) }
        let app = try await withDatabase { pool, _ in
            try await PostgresTenancyRepository(pool: pool).setPriorityBudget(appIdentifier: appId, budget: budget)
        }
        guard let app else { throw CLIError("no app has app_id '\(appId)'") }
        let said: String
        if let budget {
            let frequent = budget.frequentPerHour.map { " (\($0) on devices that allow frequent updates)" } ?? ""
            said = "App '\(app.name)' holds each activity to \(budget.perHour) priority-10 updates an hour\(frequent)."
        } else {
            said = "App '\(app.name)' has no priority budget: every update goes at the priority it asks for."
        }
        printResult([said], value: app.identifier)
    }
}
