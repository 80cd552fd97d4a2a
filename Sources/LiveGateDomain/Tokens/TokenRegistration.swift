import APNsCore

/// One `/push_token_tag` call, validated.
package struct TokenRegistration: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// An update token, registered under the tag the API's `activity_id` names.
        case activity(tag: String)
        /// A push-to-start token for an ActivityAttributes type.
        case pushToStart(attributesType: String)
    }

    /// What the call says of the user the device belongs to.
    package enum User: Sendable, Equatable {
        /// It names none (`external_id` left out, no `user_alias`): the SDK may not know the user yet, so
        /// the registration keeps the user it has, if any.
        case unstated
        /// No user is signed in on the device (`external_id: null`, no `user_alias`): the registration
        /// belongs to no user from now on, so a start or an update naming its former user no longer
        /// reaches it.
        case signedOut
        /// A user by external id; an alias beside it is attached to that user. Created on first sight.
        case externalID(String, alias: UserAlias?)
        /// A user known only by an alias. Created on first sight.
        case alias(UserAlias)

        /// The user a call names by external id or alias, or `.unstated` when it names neither.
        package static func named(externalID: String?, alias: UserAlias?) -> User {
            if let externalID { return .externalID(externalID, alias: alias) }
            if let alias { return .alias(alias) }
            return .unstated
        }
    }

    package var kind: Kind
    package var deviceID: String
    /// Nil removes the device's registration for that tag or type.
    package var token: PushToken?
    package var user: User
    /// For an update token: its activity's ActivityAttributes type, when the SDK names it. The API checks
    /// every update to the activity against that type's schema, if the app registered one.
    package var attributesType: String?

    package init(
        kind: Kind, deviceID: String, token: PushToken?, user: User = .unstated, attributesType: String? = nil
    ) {
        self.attributesType = attributesType
        self.kind = kind
        self.deviceID = deviceID
        self.token = token
        self.user = user
    }

    /// The external id the call names, if any: what SDK authentication checks.
    package var externalID: String? {
        if case .externalID(let id, _) = user { return id }
        return nil
    }

    /// The alias the call names, if any.
    package var alias: UserAlias? {
        switch user {
        case .externalID(_, let alias): alias
        case .alias(let alias): alias
        case .unstated, .signedOut: nil
        }
    }
}
