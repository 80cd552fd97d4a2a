import APNsCore
import Foundation

/// One dispatch as its resource shows it: what was asked, where it stands, what it achieved.
public struct DispatchRecord: Sendable, Equatable {
    public var id: UUID
    /// The app's `app_id` (its identifier); nil once the app was deleted.
    public var appIdentifier: String?
    public var activityID: String
    public var event: LiveActivityEvent
    public var externalID: String?
    public var state: DispatchState
    public var acceptedAt: Date
    /// Nil: sent as soon as it was accepted.
    public var sendAt: Date?
    /// When it ended (`done`, `failed`, `superseded`, `cancelled`); nil while it may still send.
    public var completedAt: Date?
    /// The dispatch that superseded it, when `state` is `superseded`.
    public var supersededBy: UUID?
    public var devices: DeviceCounts
    /// A start's confirmations; nil for updates and ends.
    public var confirmation: StartConfirmationFigures?
    /// A start to an audience: who it was for.
    public var audience: DispatchAudience?

    /// What the fan-out came to so far, device by device.
    public struct DeviceCounts: Sendable, Equatable {
        public var sent: Int
        public var failed: Int
        /// Extra tries (429, 5xx, no answer), not devices.
        public var retried: Int
        /// Tokens APNs called dead, removed.
        public var removed: Int

        public init(sent: Int, failed: Int, retried: Int, removed: Int) {
            self.sent = sent
            self.failed = failed
            self.retried = retried
            self.removed = removed
        }
    }

    public init(
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
