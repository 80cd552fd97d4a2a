import APNsCore
import Foundation

/// An accepted Live Activity message: what the delivery engine sends, committed before the API answers.
package struct Dispatch: Sendable {
    package let id: UUID
    package let workspaceID: UUID
    package let appID: UUID
    package let event: LiveActivityEvent
    /// The tag whose devices get an update or end; for a start, the id the new activity will carry.
    package let activityID: String
    /// Update and end only: narrows the fan-out to this user's devices under the tag.
    package let externalID: String?
    /// The APNs payload, built once: every device gets these bytes.
    package let payload: [UInt8]
    package let priority: APNsPriority
    /// `apns-expiration`: past this, APNs stops trying.
    package let expiresAt: Date
    /// When it is to be sent (`send_at`); nil: as soon as it is committed.
    package let sendAt: Date?
    /// A start to an audience: who it goes to, found as it is delivered.
    package let audience: DispatchAudience?

    package init(
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
