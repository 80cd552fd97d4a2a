import APNsCore

/// What a page of the fan-out achieved: the counts added to the dispatch, the cursor to resume after,
/// and what it changes besides, all recorded together so a restart neither repeats nor loses them.
package struct FanoutProgress: Sendable, Equatable {
    package var cursor: Int64
    package var sent = 0
    package var failed = 0
    package var retried = 0
    package var removed = 0
    /// Tokens APNs called dead (410, BadDeviceToken): deleted unless re-registered since.
    package var deadTokens: [PushToken] = []
    /// Update tokens of an activity that an `end` reached: retired.
    package var endedTokens: [FanoutTarget] = []
    package var log: [ActivityLogEntry] = []
    /// APNs's answer per device that got one: its last push (a start's: what its confirmations are
    /// counted against).
    package var answers: [DeviceAnswer] = []
    /// APNs's 429 `TooManyRequests` answers for the page's devices, retried ones included: counted in
    /// the activity's clock hour (`activity_priority_hours.throttled`).
    package var throttled = 0
    /// What the log says of the page's first throttled device, written only when the activity had no
    /// 429 yet in the clock hour: once per activity and hour.
    package var throttledEntry: ActivityLogEntry?
    /// Each device's push and answer, for `push.sent` and `push.failed` events: kept only while someone
    /// subscribes to them (`FanoutProgressRecords.wantsPushEvents`).
    package var pushes: [PushRecord] = []

    package init(cursor: Int64, sent: Int = 0, failed: Int = 0, retried: Int = 0, removed: Int = 0) {
        self.cursor = cursor
        self.sent = sent
        self.failed = failed
        self.retried = retried
        self.removed = removed
    }
}
