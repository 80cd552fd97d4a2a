/// The headers of a broadcast push (`POST /4/broadcasts/apps/<bundle id>`), all but `authorization`,
/// which the sender adds. The bundle id is in the path, so there is no `apns-topic`.
public struct BroadcastPushHeaders: Sendable, Equatable {
    public var channelID: ChannelID
    public var priority: APNsPriority
    /// `apns-expiration`: epoch seconds after which APNs stops trying; must be 0 on a channel whose
    /// policy is ``MessageStoragePolicy/noMessageStored``.
    public var expiration: Int64
    /// `apns-request-id`: a lower-case UUID APNs echoes; nil lets APNs make one.
    public var requestID: String?

    public init(channelID: ChannelID, priority: APNsPriority, expiration: Int64, requestID: String? = nil) {
        self.channelID = channelID
        self.priority = priority
        self.expiration = expiration
        self.requestID = requestID
    }

    public var fields: [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = [
            ("apns-channel-id", channelID.rawValue),
            ("apns-push-type", "liveactivity"),
            ("apns-priority", String(priority.rawValue)),
            ("apns-expiration", String(expiration)),
            ("content-type", "application/json"),
        ]
        if let requestID { fields.append(("apns-request-id", requestID)) }
        return fields
    }
}
