/// An APNs error reason (the `reason` of an error body), open-ended: APNs may add new ones.
public struct APNsReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let badDeviceToken = APNsReason(rawValue: "BadDeviceToken")
    public static let deviceTokenNotForTopic = APNsReason(rawValue: "DeviceTokenNotForTopic")
    public static let badTopic = APNsReason(rawValue: "BadTopic")
    public static let payloadTooLarge = APNsReason(rawValue: "PayloadTooLarge")
    public static let invalidProviderToken = APNsReason(rawValue: "InvalidProviderToken")
    public static let expiredProviderToken = APNsReason(rawValue: "ExpiredProviderToken")
    public static let missingProviderToken = APNsReason(rawValue: "MissingProviderToken")
    public static let unregistered = APNsReason(rawValue: "Unregistered")
    public static let expiredToken = APNsReason(rawValue: "ExpiredToken")
    public static let tooManyRequests = APNsReason(rawValue: "TooManyRequests")
    public static let tooManyProviderTokenUpdates = APNsReason(rawValue: "TooManyProviderTokenUpdates")
    public static let internalServerError = APNsReason(rawValue: "InternalServerError")
    public static let serviceUnavailable = APNsReason(rawValue: "ServiceUnavailable")
}
