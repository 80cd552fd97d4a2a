extension Duration {
    /// The duration in seconds, fractions included: what `make_interval(secs => …)` and `TimeInterval` take.
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// Whole milliseconds, rounded down: for logs.
    package var inMilliseconds: Int64 {
        components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000
    }
}
