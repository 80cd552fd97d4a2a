import Foundation

/// Who a start goes to, and what came of looking them up.
package struct StartTargeting: Sendable, Equatable {
    /// The ActivityAttributes type whose push-to-start tokens are used.
    package var attributesType: String
    /// De-duplicated, in the order the request named them; empty for a start to an audience.
    package var users: [UserReference]
    /// A start to an audience: resolved by its delivery, not here.
    package var audience: DispatchAudience?

    package init(attributesType: String, users: [UserReference], audience: DispatchAudience? = nil) {
        self.attributesType = attributesType
        self.users = users
        self.audience = audience
    }
}

/// What a committed start resolved.
package struct StartResolution: Sendable, Equatable {
    /// Push-to-start tokens the dispatch holds.
    package var targetCount: Int
    package var unknownUsers: [UserReference]
    package var usersWithoutToken: [UserReference]

    package init(targetCount: Int, unknownUsers: [UserReference], usersWithoutToken: [UserReference]) {
        self.targetCount = targetCount
        self.unknownUsers = unknownUsers
        self.usersWithoutToken = usersWithoutToken
    }
}

/// What a committed update or end found.
package struct UpdateResolution: Sendable, Equatable {
    /// False when no device (of that user, if one was named) is registered under the tag yet.
    package var hasRegisteredTokens: Bool
    /// The older unfinished dispatches this one superseded when it was committed.
    package var supersededDispatches: [UUID]

    package init(hasRegisteredTokens: Bool, supersededDispatches: [UUID] = []) {
        self.hasRegisteredTokens = hasRegisteredTokens
        self.supersededDispatches = supersededDispatches
    }
}
