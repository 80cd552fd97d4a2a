import Foundation

/// Who a start goes to, and what came of looking them up.
public struct StartTargeting: Sendable, Equatable {
    /// The ActivityAttributes type whose push-to-start tokens are used.
    public var attributesType: String
    /// De-duplicated, in the order the request named them.
    public var users: [UserReference]

    public init(attributesType: String, users: [UserReference]) {
        self.attributesType = attributesType
        self.users = users
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
