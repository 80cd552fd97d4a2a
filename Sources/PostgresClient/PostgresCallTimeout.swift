/// How long one call of the pool (or a session) may take: the configuration's `callTimeout`, another
/// limit, or none, for work that is slow by nature and runs where no one waits on it (migrations).
public struct PostgresCallTimeout: Sendable, Equatable {
    private enum Kind: Sendable, Equatable {
        case configured
        case limit(Duration)
        case unlimited
    }

    private let kind: Kind

    /// `PostgresConfiguration.callTimeout`.
    public static let configured = PostgresCallTimeout(kind: .configured)
    /// No deadline.
    public static let unlimited = PostgresCallTimeout(kind: .unlimited)
    /// A deadline of its own, for a call known to take longer than most.
    public static func limit(_ duration: Duration) -> PostgresCallTimeout { PostgresCallTimeout(kind: .limit(duration)) }

    /// The call's deadline, counted from now; no later than the task's `PostgresDeadline` unless unlimited.
    func deadline(_ configuration: PostgresConfiguration) -> ContinuousClock.Instant? {
        let own: ContinuousClock.Instant?
        switch kind {
        case .configured: own = configuration.callTimeout.map { .now + $0 }
        case .limit(let duration): own = .now + duration
        case .unlimited: return nil
        }
        guard let shared = PostgresDeadline.current else { return own }
        return own.map { min($0, shared) } ?? shared
    }
}
