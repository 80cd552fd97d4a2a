import APNsCore
import Foundation

/// One push to one device: the dispatch's payload, priority and expiry, and the device's token.
public struct LiveActivityPush: Sendable {
    public var deviceToken: PushToken
    public var payload: [UInt8]
    public var priority: APNsPriority
    public var expiresAt: Date
    /// Sent as `apns-id`; APNs echoes it, and the activity log shows it.
    public var apnsID: UUID

    public init(deviceToken: PushToken, payload: [UInt8], priority: APNsPriority, expiresAt: Date, apnsID: UUID = UUID()) {
        self.deviceToken = deviceToken
        self.payload = payload
        self.priority = priority
        self.expiresAt = expiresAt
        self.apnsID = apnsID
    }

    /// `apns-expiration`: whole epoch seconds.
    var expiration: Int64 { Int64(expiresAt.timeIntervalSince1970) }
}
