import APNsCore

/// The channel an update or end is broadcast on: the activity's live or ending channel.
package struct BroadcastTarget: Sendable, Equatable {
    package let channelID: ChannelID
    /// A channel that stores no message takes only `apns-expiration: 0`.
    package let messageStoragePolicy: MessageStoragePolicy

    package init(channelID: ChannelID, messageStoragePolicy: MessageStoragePolicy) {
        self.channelID = channelID
        self.messageStoragePolicy = messageStoragePolicy
    }
}

/// What a dispatch's one broadcast came to, recorded on the dispatch with its log entries at once.
package struct BroadcastRecord: Sendable {
    package var channelID: ChannelID
    /// APNs's status; nil when APNs was never reached.
    package var status: Int?
    package var reason: APNsReason?
    /// APNs no longer knows the channel: it is marked gone, so neither updates nor starts use it again.
    package var channelGone: Bool
    package var log: [ActivityLogEntry]

    package init(channelID: ChannelID, status: Int? = nil, reason: APNsReason? = nil, channelGone: Bool, log: [ActivityLogEntry]) {
        self.channelID = channelID
        self.status = status
        self.reason = reason
        self.channelGone = channelGone
        self.log = log
    }
}
