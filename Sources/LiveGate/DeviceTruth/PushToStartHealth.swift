import Foundation

/// How healthy an app's push-to-start tokens of one ActivityAttributes type are: how many, how fresh
/// (registered or rotated within a day, a week, a month, or before), how many APNs called dead in the
/// last 24 hours, and how many starts sent to them in the last 24 hours the devices confirmed.
public struct PushToStartHealth: Sendable, Equatable {
    public var tokens = 0
    public var withinDay = 0
    public var withinWeek = 0
    public var withinMonth = 0
    public var older = 0
    public var removedLastDay = 0
    /// Starts of this type accepted in the last 24 hours, and their devices.
    public var startsLastDay = 0
    public var sentLastDay = 0
    public var confirmedLastDay = 0

    public init() {}

    /// Confirmed ÷ sent; nil when nothing was sent.
    public var confirmationRate: Double? {
        sentLastDay > 0 ? Double(confirmedLastDay) / Double(sentLastDay) : nil
    }
}

/// Reads `PushToStartHealth` within one app (the caller checked it is the key's workspace's).
public protocol PushToStartHealthRecords: Sendable {
    func health(appID: UUID, attributesType: String) async throws -> PushToStartHealth
}
