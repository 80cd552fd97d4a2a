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
}

/// How sending one push ended.
public enum APNsDelivery: Sendable, Equatable {
    /// APNs answered; what the answer means is in the outcome.
    case answered(APNsOutcome)
    /// The app has no signing key: nothing was sent ("Live Activity error (No push credential)").
    case noCredential
    /// The app's key cannot sign (not a P-256 PKCS#8 key): nothing was sent.
    case unusableCredential(String)
    /// No answer: connection, TLS or timeout. Retry later.
    case transportFailed(HTTP2TransportError)
}
