import Foundation

/// One failure a person should see, as delivery records it. The workspace and app come from the
/// dispatch the entry is written for.
public struct ActivityLogEntry: Sendable, Equatable {
    public var type: ActivityLogType
    /// For a person: what happened and what LiveGate did about it.
    public var message: String
    public var activityID: String?
    public var dispatchID: UUID?
    public var externalID: String?
    /// The device token's last 8 hex digits (never the whole token).
    public var maskedToken: String?
    public var apnsStatus: Int?
    public var apnsReason: String?
    public var apnsID: String?

    public init(
        type: ActivityLogType, message: String, activityID: String? = nil, dispatchID: UUID? = nil,
        externalID: String? = nil, maskedToken: String? = nil, apnsStatus: Int? = nil, apnsReason: String? = nil,
        apnsID: String? = nil
    ) {
        self.type = type
        self.message = message
        self.activityID = activityID
        self.dispatchID = dispatchID
        self.externalID = externalID
        self.maskedToken = maskedToken
        self.apnsStatus = apnsStatus
        self.apnsReason = apnsReason
        self.apnsID = apnsID
    }
}

extension ActivityLogEntry {
    /// Entries of one type kept per app per clock hour; the rest are only counted.
    public static let storedPerTypePerHour = 100
}
