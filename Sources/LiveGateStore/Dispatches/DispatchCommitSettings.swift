import LiveGateDomain
/// Group commit of update dispatches: concurrent requests share one INSERT (and one WAL flush), so
/// accepting a message costs a fraction of a round trip when the gateway is busy.
package struct DispatchCommitSettings: Sendable, Equatable {
    /// Statements in flight at once; each holds one pooled connection while it runs. One is fastest on
    /// small machines (see docs/benchmarks.md): callers queue behind it and share the next statement.
    package var maximumConcurrentStatements: Int
    /// Rows one statement may carry.
    package var maximumRowsPerStatement: Int
    /// An accepted update or end supersedes the older dispatches it covers. Off only to measure what
    /// supersession saves (`LIVEGATE_SUPERSESSION=off`).
    package var supersedes: Bool

    package init(maximumConcurrentStatements: Int = 1, maximumRowsPerStatement: Int = 128, supersedes: Bool = true) {
        self.maximumConcurrentStatements = max(1, maximumConcurrentStatements)
        self.maximumRowsPerStatement = max(1, maximumRowsPerStatement)
        self.supersedes = supersedes
    }
}
