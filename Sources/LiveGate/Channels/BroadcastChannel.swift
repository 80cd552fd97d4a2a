import APNsCore
import Foundation

/// An app's broadcast channel for one activity, as the gateway records it.
public struct BroadcastChannel: Sendable, Equatable {
    /// The row's id: with `createdAt`, the list's keyset.
    public let id: Int64
    public let appID: UUID
    public let activityID: String
    public let state: BroadcastChannelState
    /// Nil only while `state` is `.creating`.
    public let channelID: ChannelID?
    public let messageStoragePolicy: MessageStoragePolicy
    public let createdAt: Date
    /// Microseconds since 1970, exactly as stored: the list's keyset compares it.
    public let createdAtMicroseconds: Int64
}
