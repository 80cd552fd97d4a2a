import APNsCore
import Foundation

/// One activity as `GET /live_activity/activities/{activity_id}` shows it: its devices (a page of them),
/// counts over all of them, its broadcast channel and its recent dispatches.
package struct ActivityView: Sendable, Equatable {
    package var activityID: String
    package var counts: ActivityDeviceCounts
    package var channel: ActivityChannel?
    /// Ordered by device id.
    package var devices: [ActivityDevice]
    /// Where the next page of devices starts; nil on the last page.
    package var nextCursor: DeviceCursor?
    /// Unfinished first, then by completion, newest first.
    package var dispatches: [DispatchRecord]
    /// The ActivityAttributes types its devices reported (or its start named): what its payloads are
    /// checked against.
    package var attributesTypes: [String] = []
    /// Its recent warn-mode payload mismatches, newest first: updates the phone showed nothing for.
    package var mismatches: [PayloadMismatchRecord] = []
    /// Its app's hourly priority budget (nil: none).
    package var priorityBudget: PriorityBudget?
    /// Its clock hours under that budget, newest first: the last day's, those with a count.
    package var priorityHours: [ActivityPriorityHour] = []

    package init(
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
package struct ActivityDeviceCounts: Sendable, Equatable {
    package var devices = 0
    /// Devices with an update token: those a token push would go to.
    package var withToken = 0
    /// By the state each last reported; `unreported`: a token and no report.
    package var byState: [ActivityDeviceState: Int] = [:]
    package var unreported = 0
    /// Devices that report following the activity's channel and show it.
    package var channelMembers = 0

    package init() {}
}

package struct ActivityChannel: Sendable, Equatable {
    package var id: ChannelID
    /// `live`, `ending` or `gone`, as the channel routes show it.
    package var state: String

    package init(id: ChannelID, state: String) {
        self.id = id
        self.state = state
    }
}

/// One device of the activity: its token, its last push, and what it last reported.
package struct ActivityDevice: Sendable, Equatable {
    package var deviceID: String
    package var externalID: String?
    /// The update token's last 8 hex digits; nil when the device has none (ended, dismissed, removed).
    package var maskedToken: String?
    package var registeredAt: Date?
    /// When the device last registered a different token (or user); nil if never.
    package var rotatedAt: Date?
    package var lastPush: LastPush?
    package var state: ActivityDeviceState?
    package var stateReportedAt: Date?
    /// The channel it reports following.
    package var channelID: String?
    /// It follows the activity's current channel and shows it: a delivered broadcast reaches it.
    package var channelMember = false
    /// Whether its user allows the app more frequent Live Activity updates, as the device last reported;
    /// nil when it never did.
    package var frequentPushesEnabled: Bool?

    package struct LastPush: Sendable, Equatable {
        package var dispatchID: UUID
        package var apnsStatus: Int
        package var at: Date

        package init(dispatchID: UUID, apnsStatus: Int, at: Date) {
            self.dispatchID = dispatchID
            self.apnsStatus = apnsStatus
            self.at = at
        }
    }

    package init(deviceID: String) {
        self.deviceID = deviceID
    }
}
