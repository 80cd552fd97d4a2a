import Foundation

/// How healthy an app's push-to-start tokens of one ActivityAttributes type are: how many, how fresh
/// (registered or rotated within a day, a week, a month, or before), how many APNs called dead in the
/// last 24 hours, and how many starts sent to them in the last 24 hours the devices confirmed.
package struct PushToStartHealth: Sendable, Equatable {
    package var tokens = 0
    package var withinDay = 0
    package var withinWeek = 0
    package var withinMonth = 0
    package var older = 0
    package var removedLastDay = 0
    /// Starts of this type accepted in the last 24 hours, and their devices.
    package var startsLastDay = 0
    package var sentLastDay = 0
    package var confirmedLastDay = 0

    package init() {}

    /// Confirmed ÷ sent; nil when nothing was sent.
    package var confirmationRate: Double? {
        sentLastDay > 0 ? Double(confirmedLastDay) / Double(sentLastDay) : nil
    }
}

/// Reads `PushToStartHealth` within one app (the caller checked it is the key's workspace's).
package protocol PushToStartHealthRecords: Sendable {
    func health(appID: UUID, attributesType: String) async throws -> PushToStartHealth
}
