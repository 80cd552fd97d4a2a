import APNsCore
import Foundation

/// An accepted Live Activity message: what the delivery engine sends, committed before the API answers.
public struct Dispatch: Sendable {
    public let id: UUID
    public let workspaceID: UUID
    public let appID: UUID
    public let event: LiveActivityEvent
    /// The tag whose devices get an update or end; for a start, the id the new activity will carry.
    public let activityID: String
    /// Update and end only: narrows the fan-out to this user's devices under the tag.
    public let externalID: String?
    /// The APNs payload, built once: every device gets these bytes.
    public let payload: [UInt8]
    public let priority: APNsPriority
    /// `apns-expiration`: past this, APNs stops trying.
    public let expiresAt: Date
    /// When it is to be sent (`send_at`); nil: as soon as it is committed.
    public let sendAt: Date?
    /// A start to an audience: who it goes to, found as it is delivered.
    public let audience: DispatchAudience?

    public init(
        id: UUID = DispatchIdentifier.make(acceptedAt: Date()), workspaceID: UUID, appID: UUID, event: LiveActivityEvent,
        activityID: String,
        externalID: String?, payload: [UInt8], priority: APNsPriority, expiresAt: Date,
        sendAt: Date? = nil, audience: DispatchAudience? = nil
    ) {
        self.id = id
        self.workspaceID = workspaceID
        self.appID = appID
        self.event = event
        self.activityID = activityID
        self.externalID = externalID
        self.payload = payload
        self.priority = priority
        self.expiresAt = expiresAt
        self.sendAt = sendAt
        self.audience = audience
    }
}
