extension Duration {
    /// The duration in seconds, fractions included: what `make_interval(secs => …)` and `TimeInterval` take.
    var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
