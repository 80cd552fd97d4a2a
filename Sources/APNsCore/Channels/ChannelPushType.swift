/// The kind of pushes a channel carries (`push-type` in the channel's settings). Open; Live Activities
/// are the only kind APNs broadcasts today.
public struct ChannelPushType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    /// Spelled so in channel settings, unlike the `liveactivity` of the `apns-push-type` header.
    public static let liveActivity = ChannelPushType(rawValue: "LiveActivity")
}
