import APNsCore
import Foundation

/// One activity as `GET /live_activity/activities/{activity_id}` shows it: its devices (a page of them),
/// counts over all of them, its broadcast channel and its recent dispatches.
public struct ActivityView: Sendable, Equatable {
    public var activityID: String
    public var counts: ActivityDeviceCounts
    public var channel: ActivityChannel?
    /// Ordered by device id.
    public var devices: [ActivityDevice]
    /// Where the next page of devices starts; nil on the last page.
    public var nextCursor: DeviceCursor?
    /// Unfinished first, then by completion, newest first.
    public var dispatches: [DispatchRecord]

    public init(
        activityID: String, counts: ActivityDeviceCounts, channel: ActivityChannel?, devices: [ActivityDevice],
        nextCursor: DeviceCursor?, dispatches: [DispatchRecord]
    ) {
        self.activityID = activityID
        self.counts = counts
        self.channel = channel
        self.devices = devices
        self.nextCursor = nextCursor
        self.dispatches = dispatches
    }
}

/// The activity's devices counted together: every device with an update token under the tag or a state
/// report for it.
public struct ActivityDeviceCounts: Sendable, Equatable {
    public var devices = 0
    /// Devices with an update token: those a token push would go to.
    public var withToken = 0
    /// By the state each last reported; `unreported`: a token and no report.
    public var byState: [ActivityDeviceState: Int] = [:]
    public var unreported = 0
    /// Devices that report following the activity's channel and show it.
    public var channelMembers = 0

    public init() {}
}

public struct ActivityChannel: Sendable, Equatable {
    public var id: ChannelID
    /// `live`, `ending` or `gone`, as the channel routes show it.
    public var state: String

    public init(id: ChannelID, state: String) {
        self.id = id
        self.state = state
    }
}

/// One device of the activity: its token, its last push, and what it last reported.
public struct ActivityDevice: Sendable, Equatable {
    public var deviceID: String
    public var externalID: String?
    /// The update token's last 8 hex digits; nil when the device has none (ended, dismissed, removed).
    public var maskedToken: String?
    public var registeredAt: Date?
    /// When the device last registered a different token (or user); nil if never.
    public var rotatedAt: Date?
    public var lastPush: LastPush?
    public var state: ActivityDeviceState?
    public var stateReportedAt: Date?
    /// The channel it reports following.
    public var channelID: String?
    /// It follows the activity's current channel and shows it: a delivered broadcast reaches it.
    public var channelMember = false

    public struct LastPush: Sendable, Equatable {
        public var dispatchID: UUID
        public var apnsStatus: Int
        public var at: Date

        public init(dispatchID: UUID, apnsStatus: Int, at: Date) {
            self.dispatchID = dispatchID
            self.apnsStatus = apnsStatus
            self.at = at
        }
    }

    public init(deviceID: String) {
        self.deviceID = deviceID
    }
}
