import Foundation

/// The time a message is accepted: it becomes the payload's `timestamp`, by which devices order updates.
package struct MessageClock: Sendable {
    /// How long APNs keeps trying: a Live Activity lives at most 8 hours, then up to 4 on the Lock
    /// Screen, so a push older than 12 hours can no longer matter.
    package static let defaultExpiry: Duration = .seconds(12 * 60 * 60)

    package let now: @Sendable () -> Date

    package init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
    }

    package static let system = MessageClock()
}
