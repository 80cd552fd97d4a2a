/// The `aps` dictionary of a Live Activity push (`apns-push-type: liveactivity`).
public struct LiveActivityPayload: Sendable, Equatable {
    /// The largest payload APNs accepts for a Live Activity, in bytes.
    public static let maximumSize = 4096

    public var event: LiveActivityEvent
    /// When the content was produced, in Unix seconds; the device ignores pushes older than the
    /// one it shows.
    public var timestamp: Int64
    /// Decoded on the device into the activity's `ContentState`, so it is sent as the client gave it.
    public var contentState: JSONObject
    /// When the system marks the content out of date, in Unix seconds.
    public var staleDate: Int64?
    /// For `end`: when the activity leaves the Lock Screen, in Unix seconds.
    public var dismissalDate: Int64?
    /// Which of an app's activities the system features; a JSON number, written as the client wrote it.
    public var relevanceScore: JSONValue?
    /// Left out when nil or empty.
    public var alert: LiveActivityAlert?
    /// For `start`: the name of the app's `ActivityAttributes` type.
    public var attributesType: String?
    /// For `start`: the activity's fixed attributes.
    public var attributes: JSONObject?
    /// For `start`: asks the new activity to send its update token back (`input-push-token: 1`).
    public var inputPushToken: Bool
    /// For `start` (iOS 18): starts the activity on this broadcast channel (`input-push-channel`), so it
    /// hears the channel's broadcasts; sent instead of `input-push-token`, which it then makes moot.
    public var inputPushChannel: ChannelID?

    public init(
        event: LiveActivityEvent,
        timestamp: Int64,
        contentState: JSONObject,
        staleDate: Int64? = nil,
        dismissalDate: Int64? = nil,
        relevanceScore: JSONValue? = nil,
        alert: LiveActivityAlert? = nil,
        attributesType: String? = nil,
        attributes: JSONObject? = nil,
        inputPushToken: Bool = false,
        inputPushChannel: ChannelID? = nil
    ) {
        self.event = event
        self.timestamp = timestamp
        self.contentState = contentState
        self.staleDate = staleDate
        self.dismissalDate = dismissalDate
        self.relevanceScore = relevanceScore
        self.alert = alert
        self.attributesType = attributesType
        self.attributes = attributes
        self.inputPushToken = inputPushToken
        self.inputPushChannel = inputPushChannel
    }
}
