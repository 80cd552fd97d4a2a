import Foundation

/// A dispatch a worker holds the lease on, with where its fan-out got to.
public struct ClaimedDispatch: Sendable {
    public let dispatch: Dispatch
    public let createdAt: Date
    /// The last token row already handled; the fan-out resumes after it.
    public let fanoutCursor: Int64
    /// How many times a worker has claimed it, this claim included.
    public let attempts: Int
}

/// What a page of the fan-out achieved, added to the dispatch's counts.
public struct FanoutProgress: Sendable, Equatable {
    public var cursor: Int64
    public var sent = 0
    public var failed = 0
    public var retried = 0
    public var removed = 0

    public init(cursor: Int64, sent: Int = 0, failed: Int = 0, retried: Int = 0, removed: Int = 0) {
        self.cursor = cursor
        self.sent = sent
        self.failed = failed
        self.retried = retried
        self.removed = removed
    }
}
