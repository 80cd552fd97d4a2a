/// The deadline of the work a task does for someone who waits on it, such as a request: every call the
/// task (and the tasks it starts) makes to a pool or session ends by then, whatever its own timeout, so
/// a request that needs several calls still answers within one deadline when the server hangs.
public enum PostgresDeadline {
    @TaskLocal public static var current: ContinuousClock.Instant?
}
