import APNsCore

/// Where one budgeted update stood when it was counted: how many priority-10 updates its activity had
/// had in the last hour. Each device gets it at priority 10 while that count is below the device's
/// budget, at priority 5 past it; an `end` and an update with an alert keep priority 10 whatever the count.
package struct PriorityStanding: Sendable, Equatable {
    package let budget: PriorityBudget
    /// The activity's priority-10 updates in the hour before this one.
    package let position: Int
    /// An `end` or an update with an alert: never lowered.
    package let keepsPriority: Bool
    /// This update is the first the budget lowered in its activity's clock hour: the one logged.
    package let firstLowered: Bool

    package init(budget: PriorityBudget, position: Int, keepsPriority: Bool, firstLowered: Bool = false) {
        self.budget = budget
        self.position = position
        self.keepsPriority = keepsPriority
        self.firstLowered = firstLowered
    }

    /// The priority for a device with this frequent-updates setting (nil: never reported).
    package func priority(frequentPushesEnabled: Bool?) -> APNsPriority {
        isLowered(frequentPushesEnabled: frequentPushesEnabled) ? .conservesPower : .immediate
    }

    package func isLowered(frequentPushesEnabled: Bool?) -> Bool {
        !keepsPriority && position >= budget.perHour(frequentPushesEnabled: frequentPushesEnabled)
    }
}
