import Foundation

/// One clock hour (UTC) of an activity under its app's priority budget, as the activity resource shows it.
package struct ActivityPriorityHour: Sendable, Equatable {
    package let hour: Date
    /// Updates that went at priority 10 to at least one of the activity's devices.
    package let sentAtPriority10: Int
    /// Updates the budget lowered to priority 5 for at least one device.
    package let lowered: Int
    /// APNs's 429 TooManyRequests answers for the activity's devices.
    package let throttled: Int

    package init(hour: Date, sentAtPriority10: Int, lowered: Int, throttled: Int) {
        self.hour = hour
        self.sentAtPriority10 = sentAtPriority10
        self.lowered = lowered
        self.throttled = throttled
    }
}
