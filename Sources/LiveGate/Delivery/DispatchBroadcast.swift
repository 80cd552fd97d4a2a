import APNsCore

/// The channel an update or end is broadcast on: the activity's live or ending channel.
public struct BroadcastTarget: Sendable, Equatable {
    public let channelID: ChannelID
    /// A channel that stores no message takes only `apns-expiration: 0`.
    public let messageStoragePolicy: MessageStoragePolicy
}

/// What a dispatch's one broadcast came to, recorded on the dispatch with its log entries at once.
public struct BroadcastRecord: Sendable {
    public var channelID: ChannelID
    /// APNs's status; nil when APNs was never reached.
    public var status: Int?
    public var reason: APNsReason?
    /// APNs no longer knows the channel: it is marked gone, so neither updates nor starts use it again.
    public var channelGone: Bool
    public var log: [ActivityLogEntry]
}
