import Foundation

extension PriorityStanding {
    /// The entry for the first update the budget lowered in its activity's hour: what happened, why, and
    /// what the next ones of the hour will do.
    package func loweredEntry(for dispatch: Dispatch) -> ActivityLogEntry {
        let frequent = budget.frequentPerHour.map { " (\($0) on devices that allow frequent updates)" } ?? ""
        return ActivityLogEntry(
            type: .priorityLowered,
            message:
                "Activity \"\(dispatch.activityID)\" had \(position) priority-10 updates in the last hour, its app's budget "
                + "of \(budget.perHour)\(frequent): this update and the following ones go at priority 5 until the "
                + "hour's count falls below the budget, so iOS keeps showing them instead of throttling them. "
                + "An end and an update with an alert keep priority 10. Only this first lowering of the hour is logged.",
            activityID: dispatch.activityID, dispatchID: dispatch.id, externalID: dispatch.externalID)
    }
}
