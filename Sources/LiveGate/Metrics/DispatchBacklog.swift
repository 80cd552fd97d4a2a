/// Committed dispatches not finished yet, as the database holds them (all gateways' together).
public struct DispatchBacklog: Sendable, Equatable {
    /// Due, waiting for a delivery worker.
    public var pending: Int
    /// Due and held by a worker (or by one that stopped, until its lease runs out).
    public var delivering: Int
    /// Not due yet: `send_at` ahead, or handed back to be tried again later.
    public var scheduled: Int
    /// How long the longest-waiting due one has been due; 0 when none is.
    public var oldestWaitingSeconds: Double

    public init(pending: Int = 0, delivering: Int = 0, scheduled: Int = 0, oldestWaitingSeconds: Double = 0) {
        self.pending = pending
        self.delivering = delivering
        self.scheduled = scheduled
        self.oldestWaitingSeconds = oldestWaitingSeconds
    }
}
