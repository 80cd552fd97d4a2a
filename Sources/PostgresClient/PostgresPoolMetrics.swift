import Metrics

/// What a pool reports through swift-metrics (nothing, unless the process bootstrapped a backend):
/// connections open and handed out, and how often and how long callers waited because every
/// connection was in use. The handles are made once, with the factory in force when the pool is made.
/// Several pools in one process add up: the gauges move by increments, never by `set`.
public struct PostgresPoolMetrics: Sendable {
    public static let inUseLabel = "postgres.pool.connections.in_use"
    public static let openLabel = "postgres.pool.connections.open"
    public static let waitsLabel = "postgres.pool.waits"
    public static let waitDurationLabel = "postgres.pool.wait.duration"

    private let inUse: Meter
    private let open: Meter
    private let waits: Counter
    private let waitDuration: Timer

    init(factory: any MetricsFactory = MetricsSystem.factory) {
        inUse = Meter(label: Self.inUseLabel, factory: factory)
        open = Meter(label: Self.openLabel, factory: factory)
        waits = Counter(label: Self.waitsLabel, factory: factory)
        waitDuration = Timer(label: Self.waitDurationLabel, factory: factory)
    }

    func handedOut() { inUse.increment() }
    func returned() { inUse.decrement() }
    func opened() { open.increment() }
    func closed(_ count: Int) { if count > 0 { open.decrement(by: Double(count)) } }
    /// A caller found every connection in use and queued.
    func queued() { waits.increment() }
    func waited(_ duration: Duration) { waitDuration.record(duration: duration) }
}
