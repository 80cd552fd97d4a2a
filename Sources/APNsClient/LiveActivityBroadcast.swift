import APNsCore
import Foundation
import UUIDText

/// One push to a broadcast channel: the payload (the usual `aps` block), priority and expiry, and the
/// channel it goes to.
public struct LiveActivityBroadcast: Sendable {
    public var channelID: ChannelID
    public var payload: [UInt8]
    public var priority: APNsPriority
    /// Nil sends `apns-expiration: 0`, which a channel that stores no message requires.
    public var expiresAt: Date?
    /// Sent as `apns-request-id`; APNs echoes it.
    public var requestID: UUID

    public init(channelID: ChannelID, payload: [UInt8], priority: APNsPriority, expiresAt: Date?, requestID: UUID = UUID()) {
        self.channelID = channelID
        self.payload = payload
        self.priority = priority
        self.expiresAt = expiresAt
        self.requestID = requestID
    }

    var headers: BroadcastPushHeaders {
        BroadcastPushHeaders(
            channelID: channelID, priority: priority, expiration: expiresAt.map { Int64($0.timeIntervalSince1970) } ?? 0,
            requestID: requestID.lowercasedText)
    }
}
