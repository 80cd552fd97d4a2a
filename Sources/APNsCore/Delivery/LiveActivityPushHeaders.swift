/// The headers of a Live Activity push, all but `authorization`, which the sender adds.
public struct LiveActivityPushHeaders: Sendable, Equatable {
    public var bundleID: String
    public var priority: APNsPriority
    /// `apns-expiration`: epoch seconds after which APNs stops trying; 0 means try once.
    public var expiration: Int64
    /// `apns-id`: a lower-case UUID, echoed by APNs and shown in the activity log.
    public var apnsID: String

    public init(bundleID: String, priority: APNsPriority, expiration: Int64, apnsID: String) {
        self.bundleID = bundleID
        self.priority = priority
        self.expiration = expiration
        self.apnsID = apnsID
    }

    /// `<bundle id>.push-type.liveactivity`, the topic Live Activity pushes must use.
    public var topic: String { bundleID + ".push-type.liveactivity" }

    public var fields: [(name: String, value: String)] {
        sharedFields + [("apns-id", apnsID)]
    }

    /// Every field but `apns-id`: the same for all pushes of one message, so they can be built once.
    public var sharedFields: [(name: String, value: String)] {
        [
            ("apns-push-type", "liveactivity"),
            ("apns-topic", topic),
            ("apns-priority", String(priority.rawValue)),
            ("apns-expiration", String(expiration)),
            ("content-type", "application/json"),
        ]
    }
}
