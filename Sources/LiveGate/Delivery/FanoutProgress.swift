import APNsCore

/// What a page of the fan-out achieved: the counts added to the dispatch, the cursor to resume after,
/// and what it changes besides, all recorded together so a restart neither repeats nor loses them.
public struct FanoutProgress: Sendable, Equatable {
    public var cursor: Int64
    public var sent = 0
    public var failed = 0
    public var retried = 0
    public var removed = 0
    /// Tokens APNs called dead (410, BadDeviceToken): deleted unless re-registered since.
    public var deadTokens: [PushToken] = []
    /// Update tokens of an activity that an `end` reached: retired.
    public var endedTokens: [FanoutTarget] = []
    public var log: [ActivityLogEntry] = []
    /// APNs's answer per device that got one: its last push (a start's: what its confirmations are
    /// counted against).
    public var answers: [DeviceAnswer] = []

    public init(cursor: Int64, sent: Int = 0, failed: Int = 0, retried: Int = 0, removed: Int = 0) {
        self.cursor = cursor
        self.sent = sent
        self.failed = failed
        self.retried = retried
        self.removed = removed
    }
}
