import APNsCore
import Foundation

/// The broadcast channels the simulator holds, per bundle id, in the order they were made.
struct SimulatedChannels {
    struct Channel {
        let bundleID: String
        let id: ChannelID
        let policy: MessageStoragePolicy
        /// Creation order, for listing.
        let sequence: Int
    }

    private var byApp: [String: [ChannelID: Channel]] = [:]
    private var created = 0

    func count(bundleID: String) -> Int { byApp[bundleID]?.count ?? 0 }

    func channel(_ id: ChannelID, bundleID: String) -> Channel? { byApp[bundleID]?[id] }

    /// A new channel with an id like APNs's: 16 random bytes in base64.
    mutating func create(bundleID: String, policy: MessageStoragePolicy) -> ChannelID {
        var id: ChannelID
        repeat {
            id = ChannelID(rawValue: Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString())
        } while byApp[bundleID]?[id] != nil
        created += 1
        byApp[bundleID, default: [:]][id] = Channel(bundleID: bundleID, id: id, policy: policy, sequence: created)
        return id
    }

    /// False if there was no such channel.
    mutating func delete(_ id: ChannelID, bundleID: String) -> Bool {
        byApp[bundleID]?.removeValue(forKey: id) != nil
    }

    /// One app's channels, oldest first.
    func list(bundleID: String) -> [Channel] {
        (byApp[bundleID].map { Array($0.values) } ?? []).sorted { $0.sequence < $1.sequence }
    }

    /// Every app's channels, oldest first.
    var all: [Channel] {
        byApp.values.flatMap(\.values).sorted { $0.sequence < $1.sequence }
    }
}
