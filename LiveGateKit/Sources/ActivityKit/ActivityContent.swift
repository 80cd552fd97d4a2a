// Stand-in for Apple's ActivityKit, for LiveGateKit's tests on Linux. Mirrors the documented signatures:
// https://developer.apple.com/documentation/activitykit/activitycontent
// https://developer.apple.com/documentation/activitykit/activitycontent/init(state:staledate:relevancescore:)

import Foundation

/// Apple's `ActivityContent`: an activity's state with its stale date and relevance score.
/// Stand-in: a plain value.
@available(iOS 16.2, *)
public struct ActivityContent<State> where State: Decodable, State: Encodable, State: Hashable {
    /// Apple's `ActivityContent.state`.
    public let state: State
    /// Apple's `ActivityContent.staleDate`: when the system considers the activity out of date.
    public let staleDate: Date?
    /// Apple's `ActivityContent.relevanceScore`: orders several activities of one app.
    public let relevanceScore: Double

    /// Apple's `init(state:staleDate:relevanceScore:)`.
    public init(state: State, staleDate: Date?, relevanceScore: Double = 0.0) {
        self.state = state
        self.staleDate = staleDate
        self.relevanceScore = relevanceScore
    }
}

// Apple documents `ActivityContent` as Sendable whatever its `State`; only immutable values are stored.
@available(iOS 16.2, *)
extension ActivityContent: @unchecked Sendable {}
