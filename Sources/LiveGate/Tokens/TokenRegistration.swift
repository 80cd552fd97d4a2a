import APNsCore

/// One `/push_token_tag` call, validated.
public struct TokenRegistration: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// An update token, registered under the tag the API's `activity_id` names.
        case activity(tag: String)
        /// A push-to-start token for an ActivityAttributes type.
        case pushToStart(attributesType: String)
    }

    public var kind: Kind
    public var deviceID: String
    /// Nil removes the device's registration for that tag or type.
    public var token: PushToken?
    /// The user the device belongs to, when the SDK knows one; created on first sight.
    public var externalID: String?
    public var alias: UserAlias?

    public init(
        kind: Kind, deviceID: String, token: PushToken?, externalID: String? = nil,
        alias: UserAlias? = nil
    ) {
        self.kind = kind
        self.deviceID = deviceID
        self.token = token
        self.externalID = externalID
        self.alias = alias
    }
}
