/// The reasons APNs gives for channel management and broadcast requests.
extension APNsReason {
    /// No `apns-channel-id` header where one is needed.
    public static let missingChannelId = APNsReason(rawValue: "MissingChannelId")
    /// `apns-channel-id` is not a channel id.
    public static let badChannelId = APNsReason(rawValue: "BadChannelId")
    /// No such channel for this app in this environment (never created, or deleted).
    public static let channelNotRegistered = APNsReason(rawValue: "ChannelNotRegistered")
    /// `message-storage-policy` is missing or not one APNs knows.
    public static let badMessageStoragePolicy = APNsReason(rawValue: "BadMessageStoragePolicy")
    /// The app has as many channels as it may have (10,000 per environment).
    public static let cannotCreateChannelConfig = APNsReason(rawValue: "CannotCreateChannelConfig")
    /// The push type (`push-type` of a channel, `apns-push-type` of a broadcast) is not Live Activity.
    public static let invalidPushType = APNsReason(rawValue: "InvalidPushType")
    public static let missingPushType = APNsReason(rawValue: "MissingPushType")
    /// Broadcast is not enabled for the app's key or bundle id.
    public static let featureNotEnabled = APNsReason(rawValue: "FeatureNotEnabled")
    /// `apns-expiration` is not an epoch time, or not 0 on a channel that stores no message.
    public static let badExpirationDate = APNsReason(rawValue: "BadExpirationDate")
    public static let badPriority = APNsReason(rawValue: "BadPriority")
    public static let badPath = APNsReason(rawValue: "BadPath")
    public static let methodNotAllowed = APNsReason(rawValue: "MethodNotAllowed")
}
