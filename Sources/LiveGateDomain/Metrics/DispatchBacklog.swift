/// Committed dispatches not finished yet, as the database holds them (all gateways' together).
package struct DispatchBacklog: Sendable, Equatable {
    /// Due, waiting for a delivery worker.
    package var pending: Int
    /// Due and held by a worker (or by one that stopped, until its lease runs out).
    package var delivering: Int
    /// Not due yet: `send_at` ahead, or handed back to be tried again later.
    package var scheduled: Int
    /// How long the longest-waiting due one has been due; 0 when none is.
    package var oldestWaitingSeconds: Double

    package init(pending: Int = 0, delivering: Int = 0, scheduled: Int = 0, oldestWaitingSeconds: Double = 0) {
        self.pending = pending
        self.delivering = delivering
        self.scheduled = scheduled
        self.oldestWaitingSeconds = oldestWaitingSeconds
    }
}
