// Stand-in for Apple's ActivityKit, for LiveGateKit's tests on Linux. Mirrors the documented signatures:
// https://developer.apple.com/documentation/activitykit/pushtype
// https://developer.apple.com/documentation/activitykit/pushtype/token
// https://developer.apple.com/documentation/activitykit/pushtype/channel(_:)

/// Apple's `PushType`: how an activity receives ActivityKit pushes, through its own token or a
/// broadcast channel. Stand-in: remembers which, for `Activity.standInLastRequestedPushType`.
@available(iOS 16.1, *)
public struct PushType: Sendable {
    enum Kind: Hashable, Sendable {
        case token
        case channel(String)
    }

    let kind: Kind

    /// Apple's `PushType.token`: updates through the activity's own push token.
    public static var token: PushType { PushType(kind: .token) }

    /// Apple's `PushType.channel(_:)`: updates through the broadcast channel with this (base64) id.
    @available(iOS 18.0, *)
    public static func channel(_ name: String) -> PushType { PushType(kind: .channel(name)) }
}
