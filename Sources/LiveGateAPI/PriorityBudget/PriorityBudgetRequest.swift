import APNsCore
import LiveGateDomain

/// A validated `PUT /live_activity/priority_budget` body: the app and its budget, or none
/// (`priority_budget_per_hour` null turns it off).
struct PriorityBudgetRequest {
    var appID: String
    var budget: PriorityBudget?

    static func parse(_ body: JSONObject) throws(APIError) -> PriorityBudgetRequest {
        let problems = ValidationProblems()
        let fields = FieldReader(body, problems: problems)
        let appID = fields.string("app_id", required: true, maxLength: 128)
        if !fields.has("priority_budget_per_hour") && !fields.isNull("priority_budget_per_hour") {
            problems.add("priority_budget_per_hour is required: a whole number of updates per hour, or null to turn the budget off")
        }
        let perHour = Self.perHour(fields, "priority_budget_per_hour", problems: problems)
        let frequentPerHour = Self.perHour(fields, "frequent_priority_budget_per_hour", problems: problems)
        if let frequentPerHour {
            if let perHour {
                if frequentPerHour < perHour {
                    problems.add(
                        "frequent_priority_budget_per_hour must be at least priority_budget_per_hour: iOS gives those devices more, not less"
                    )
                }
            } else if fields.isNull("priority_budget_per_hour") {
                problems.add("frequent_priority_budget_per_hour needs priority_budget_per_hour: it only raises the budget for some devices")
            }
        }
        try problems.throwIfAny()
        return PriorityBudgetRequest(
            appID: appID!, budget: perHour.flatMap { PriorityBudget(perHour: $0, frequentPerHour: frequentPerHour) })
    }

    /// A whole number from 1 to `PriorityBudget.maximumPerHour`; nil when absent, null or refused.
    private static func perHour(_ fields: FieldReader, _ field: String, problems: ValidationProblems) -> Int? {
        guard let value = fields.number(field) else { return nil }
        guard let count = value.wholeNumber, (1...PriorityBudget.maximumPerHour).contains(count) else {
            problems.add("\(field) must be a whole number from 1 to \(PriorityBudget.maximumPerHour), or null")
            return nil
        }
        return count
    }
}
