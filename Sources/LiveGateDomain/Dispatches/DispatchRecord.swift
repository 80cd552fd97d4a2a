import APNsCore
import Foundation

/// One dispatch as its resource shows it: what was asked, where it stands, what it achieved.
package struct DispatchRecord: Sendable, Equatable {
    package var id: UUID
    /// The app's `app_id` (its identifier); nil once the app was deleted.
    package var appIdentifier: String?
    package var activityID: String
    package var event: LiveActivityEvent
    package var externalID: String?
    package var state: DispatchState
    package var acceptedAt: Date
    /// Nil: sent as soon as it was accepted.
    package var sendAt: Date?
    /// When it ended (`done`, `failed`, `superseded`, `cancelled`); nil while it may still send.
    package var completedAt: Date?
    /// The dispatch that superseded it, when `state` is `superseded`.
    package var supersededBy: UUID?
    package var devices: DeviceCounts
    /// A start's confirmations; nil for updates and ends.
    package var confirmation: StartConfirmationFigures?
    /// A start to an audience: who it was for.
    package var audience: DispatchAudience?

    /// What the fan-out came to so far, device by device.
    package struct DeviceCounts: Sendable, Equatable {
        package var sent: Int
        package var failed: Int
        /// Extra tries (429, 5xx, no answer), not devices.
        package var retried: Int
        /// Tokens APNs called dead, removed.
        package var removed: Int

        package init(sent: Int, failed: Int, retried: Int, removed: Int) {
            self.sent = sent
            self.failed = failed
            self.retried = retried
            self.removed = removed
        }
    }

    package init(
        id: UUID, appIdentifier: String?, activityID: String, event: LiveActivityEvent, externalID: String?,
        state: DispatchState, acceptedAt: Date, sendAt: Date?, completedAt: Date?, supersededBy: UUID?,
        devices: DeviceCounts, confirmation: StartConfirmationFigures? = nil, audience: DispatchAudience? = nil
    ) {
        self.id = id
        self.appIdentifier = appIdentifier
        self.activityID = activityID
        self.event = event
        self.externalID = externalID
        self.state = state
        self.acceptedAt = acceptedAt
        self.sendAt = sendAt
        self.completedAt = completedAt
        self.supersededBy = supersededBy
        self.devices = devices
        self.confirmation = confirmation
        self.audience = audience
    }
}
