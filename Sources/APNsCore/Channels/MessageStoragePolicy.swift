/// What APNs keeps of a channel's broadcasts for devices it cannot reach at once, chosen when the
/// channel is created (`message-storage-policy`). Open: APNs may add policies.
public struct MessageStoragePolicy: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    public var description: String { String(rawValue) }

    /// 0: nothing is stored; a device that is not reachable misses the broadcast. Broadcasts on such
    /// a channel must have `apns-expiration: 0`.
    public static let noMessageStored = MessageStoragePolicy(rawValue: 0)
    /// 1: the most recent broadcast is stored and delivered when the device is reachable again.
    public static let mostRecentMessageStored = MessageStoragePolicy(rawValue: 1)
}
