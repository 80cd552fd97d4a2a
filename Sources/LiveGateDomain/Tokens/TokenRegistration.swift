import APNsCore

/// One `/push_token_tag` call, validated.
package struct TokenRegistration: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// An update token, registered under the tag the API's `activity_id` names.
        case activity(tag: String)
        /// A push-to-start token for an ActivityAttributes type.
        case pushToStart(attributesType: String)
    }

    package var kind: Kind
    package var deviceID: String
    /// Nil removes the device's registration for that tag or type.
    package var token: PushToken?
    /// The user the device belongs to, when the SDK knows one; created on first sight.
    package var externalID: String?
    package var alias: UserAlias?
    /// For an update token: its activity's ActivityAttributes type, when the SDK names it. The API checks
    /// every update to the activity against that type's schema, if the app registered one.
    package var attributesType: String?

    package init(
        kind: Kind, deviceID: String, token: PushToken?, externalID: String? = nil,
        alias: UserAlias? = nil, attributesType: String? = nil
    ) {
        self.attributesType = attributesType
        self.kind = kind
        self.deviceID = deviceID
        self.token = token
        self.externalID = externalID
        self.alias = alias
    }
}
