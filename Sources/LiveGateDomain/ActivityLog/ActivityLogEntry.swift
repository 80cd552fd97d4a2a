import APNsCore
import Foundation

/// One failure a person should see, as delivery records it (the workspace and app come from the
/// dispatch the entry is written for), or a webhook endpoint's pause or resumption (the endpoint's
/// workspace and app, if it has one).
package struct ActivityLogEntry: Sendable, Equatable {
    package var type: ActivityLogType
    /// For a person: what happened and what LiveGate did about it.
    package var message: String
    package var activityID: String?
    package var dispatchID: UUID?
    package var externalID: String?
    /// The device token's last 8 hex digits (never the whole token).
    package var maskedToken: String?
    package var apnsStatus: Int?
    package var apnsReason: String?
    package var apnsID: String?
    /// What an entry that is not about a device is about, as structured fields (a webhook endpoint's
    /// id, host and failures); nil for delivery's entries, whose columns above say it all.
    package var details: JSONObject?

    package init(
        type: ActivityLogType, message: String, activityID: String? = nil, dispatchID: UUID? = nil,
        externalID: String? = nil, maskedToken: String? = nil, apnsStatus: Int? = nil, apnsReason: String? = nil,
        apnsID: String? = nil, details: JSONObject? = nil
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
        self.details = details
    }
}

extension ActivityLogEntry {
    /// Entries of one type kept per app per clock hour; the rest are only counted.
    package static let storedPerTypePerHour = 100
}
