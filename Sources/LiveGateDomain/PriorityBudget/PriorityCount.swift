/// A budgeted update to count against its app's budget before it goes: which budgets apply, and which
/// kinds of device it goes to (it counts as sent at priority 10 only if some device gets it so).
package struct PriorityCount: Sendable {
    package let dispatch: Dispatch
    package let budget: PriorityBudget
    /// It goes to devices on the standard budget (or that never said).
    package let toStandardDevices: Bool
    /// It goes to devices whose app reported frequent updates allowed.
    package let toFrequentDevices: Bool
    /// An `end` or an alert: it goes at priority 10 past the budget, and counts.
    package let keepsPriority: Bool

    package init(dispatch: Dispatch, budget: PriorityBudget, toStandardDevices: Bool, toFrequentDevices: Bool) {
        self.dispatch = dispatch
        self.budget = budget
        self.toStandardDevices = toStandardDevices
        self.toFrequentDevices = toFrequentDevices
        self.keepsPriority = dispatch.keepsPriorityPastBudget
    }

    /// For an update to `targets` (a fan-out: its first page, which stands for the rest).
    package init(dispatch: Dispatch, budget: PriorityBudget, targets: [FanoutTarget]) {
        self.init(
            dispatch: dispatch, budget: budget,
            toStandardDevices: targets.contains { $0.frequentPushesEnabled != true },
            toFrequentDevices: targets.contains { $0.frequentPushesEnabled == true })
    }

    /// Whether an update standing at `position` is lowered for some device it goes to.
    package func lowers(at position: Int) -> Bool {
        guard !keepsPriority else { return false }
        return (toStandardDevices && position >= budget.perHour)
            || (toFrequentDevices && position >= budget.frequentPerHour ?? budget.perHour)
    }
}
