/// The answer to listing an app's channels, `{"channels": ["<id>", ...]}`.
public struct ChannelList: Sendable, Hashable {
    public var channels: [ChannelID]

    public init(channels: [ChannelID]) {
        self.channels = channels
    }

    public var json: JSONValue {
        .object(["channels": .array(channels.map { .string($0.rawValue) })])
    }

    /// Nil unless `json` is an object whose `channels` is an array of strings.
    public init?(json: JSONValue) {
        guard let elements = json["channels"]?.arrayValue else { return nil }
        var channels: [ChannelID] = []
        channels.reserveCapacity(elements.count)
        for element in elements {
            guard let text = element.stringValue else { return nil }
            channels.append(ChannelID(rawValue: text))
        }
        self.channels = channels
    }
}
