import APNsCore
import Foundation

/// An app's broadcast channel for one activity, as the gateway records it.
package struct BroadcastChannel: Sendable, Equatable {
    /// The row's id: with `createdAt`, the list's keyset.
    package let id: Int64
    package let appID: UUID
    package let activityID: String
    package let state: BroadcastChannelState
    /// Nil only while `state` is `.creating`.
    package let channelID: ChannelID?
    package let messageStoragePolicy: MessageStoragePolicy
    package let createdAt: Date
    /// Microseconds since 1970, exactly as stored: the list's keyset compares it.
    package let createdAtMicroseconds: Int64

    package init(
        id: Int64, appID: UUID, activityID: String, state: BroadcastChannelState, channelID: ChannelID?,
        messageStoragePolicy: MessageStoragePolicy, createdAt: Date, createdAtMicroseconds: Int64
    ) {
        self.id = id
        self.appID = appID
        self.activityID = activityID
        self.state = state
        self.channelID = channelID
        self.messageStoragePolicy = messageStoragePolicy
        self.createdAt = createdAt
        self.createdAtMicroseconds = createdAtMicroseconds
    }
}
