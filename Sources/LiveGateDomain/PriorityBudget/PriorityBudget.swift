/// An app's hourly priority budget: how many priority-10 updates one of its activities may get in an
/// hour before the rest go at priority 5. iOS holds each app to such a budget on every device (larger
/// when the user allows frequent updates) and stops showing updates past it while APNs still answers
/// 200; Apple publishes no number, so the app's owner picks them. Off (nil on the app) by default.
package struct PriorityBudget: Sendable, Equatable {
    /// The most any budget may be: beyond it a budget lowers nothing an hour could hold.
    package static let maximumPerHour = 100_000

    /// For devices on the standard budget, and for those that never said.
    package let perHour: Int
    /// For devices whose app reports that the user allows frequent updates; nil: `perHour` for them too.
    package let frequentPerHour: Int?

    /// Nil when a value is out of range (1 to `maximumPerHour`), or the frequent budget is below the
    /// standard one (iOS gives those devices more, not less).
    package init?(perHour: Int, frequentPerHour: Int? = nil) {
        let range = 1...Self.maximumPerHour
        guard range.contains(perHour), frequentPerHour.map({ range.contains($0) && $0 >= perHour }) ?? true else { return nil }
        self.perHour = perHour
        self.frequentPerHour = frequentPerHour
    }

    /// The budget a device is held to: the frequent one when its app reported frequent updates allowed.
    package func perHour(frequentPushesEnabled: Bool?) -> Int {
        frequentPushesEnabled == true ? frequentPerHour ?? perHour : perHour
    }

    /// Whether the device's frequent-updates setting can change its budget (a frequent budget is set):
    /// only then does delivery read it.
    package var readsDeviceSettings: Bool { frequentPerHour != nil }
}
