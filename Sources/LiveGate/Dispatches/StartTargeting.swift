import Foundation

/// Who a start goes to, and what came of looking them up.
public struct StartTargeting: Sendable, Equatable {
    /// The ActivityAttributes type whose push-to-start tokens are used.
    public var attributesType: String
    /// De-duplicated, in the order the request named them; empty for a start to an audience.
    public var users: [UserReference]
    /// A start to an audience: resolved by its delivery, not here.
    public var audience: DispatchAudience?

    public init(attributesType: String, users: [UserReference], audience: DispatchAudience? = nil) {
        self.attributesType = attributesType
        self.users = users
        self.audience = audience
    }
}

/// What a committed start resolved.
public struct StartResolution: Sendable, Equatable {
    /// Push-to-start tokens the dispatch holds.
    public var targetCount: Int
    public var unknownUsers: [UserReference]
    public var usersWithoutToken: [UserReference]

    public init(targetCount: Int, unknownUsers: [UserReference], usersWithoutToken: [UserReference]) {
        self.targetCount = targetCount
        self.unknownUsers = unknownUsers
        self.usersWithoutToken = usersWithoutToken
    }
}

/// What a committed update or end found.
public struct UpdateResolution: Sendable, Equatable {
    /// False when no device (of that user, if one was named) is registered under the tag yet.
    public var hasRegisteredTokens: Bool
    /// The older unfinished dispatches this one superseded when it was committed.
    public var supersededDispatches: [UUID]

    public init(hasRegisteredTokens: Bool, supersededDispatches: [UUID] = []) {
        self.hasRegisteredTokens = hasRegisteredTokens
        self.supersededDispatches = supersededDispatches
    }
}
