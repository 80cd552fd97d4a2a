/// A channel's settings: the body of a create request and of the answer to reading a channel,
/// `{"message-storage-policy": 0|1, "push-type": "LiveActivity"}`.
public struct ChannelSettings: Sendable, Hashable {
    public var messageStoragePolicy: MessageStoragePolicy
    public var pushType: ChannelPushType

    public init(messageStoragePolicy: MessageStoragePolicy, pushType: ChannelPushType = .liveActivity) {
        self.messageStoragePolicy = messageStoragePolicy
        self.pushType = pushType
    }

    public var json: JSONValue {
        .object([
            "message-storage-policy": .integer(messageStoragePolicy.rawValue),
            "push-type": .string(pushType.rawValue),
        ])
    }

    /// Reads settings as JSON: any integer policy and any push type string pass (they are open), so
    /// the reader can tell which one APNs would refuse; anything else throws, naming the member.
    public init(json: JSONValue) throws(ChannelSettingsError) {
        guard let object = json.objectValue else { throw ChannelSettingsError(.notAnObject) }
        guard let policy = object["message-storage-policy"] else { throw ChannelSettingsError(.missingMessageStoragePolicy) }
        guard let number = policy.numberLexeme.flatMap({ Int($0) }) else {
            throw ChannelSettingsError(.badMessageStoragePolicy)
        }
        guard let pushType = object["push-type"] else { throw ChannelSettingsError(.missingPushType) }
        guard let text = pushType.stringValue else { throw ChannelSettingsError(.badPushType) }
        self.init(messageStoragePolicy: MessageStoragePolicy(rawValue: number), pushType: ChannelPushType(rawValue: text))
    }

    public init(json bytes: [UInt8]) throws(ChannelSettingsError) {
        guard let value = try? JSONValue.parse(bytes) else { throw ChannelSettingsError(.notJSON) }
        try self.init(json: value)
    }
}

/// Why bytes are not channel settings.
public struct ChannelSettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added, so switch over them with a default.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case notJSON = "not_json"
            case notAnObject = "not_an_object"
            case missingMessageStoragePolicy = "missing_message_storage_policy"
            case badMessageStoragePolicy = "bad_message_storage_policy"
            case missingPushType = "missing_push_type"
            case badPushType = "bad_push_type"
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        public static let notJSON = Code(.notJSON)
        public static let notAnObject = Code(.notAnObject)
        public static let missingMessageStoragePolicy = Code(.missingMessageStoragePolicy)
        /// Present but not an integer.
        public static let badMessageStoragePolicy = Code(.badMessageStoragePolicy)
        public static let missingPushType = Code(.missingPushType)
        /// Present but not a string.
        public static let badPushType = Code(.badPushType)

        public var description: String { base.rawValue }
    }

    public let code: Code

    public init(_ code: Code) {
        self.code = code
    }

    public var description: String { "not channel settings: \(code.description)" }
}
