import ArgumentParser
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import Logging
import Metrics

@main
enum LiveGateMain {
    /// What `livegate serve` shows at `GET /metrics`.
    static let metrics = GatewayMetricsFactory()

    static func main() async {
        // First, before the process allocates much: jemalloc's purging goes to threads of its own.
        ProcessAllocator.purgeInBackground()
        // Logging is bootstrapped once, here: to standard error, so standard output carries only what
        // scripts read (the identifiers and keys the create commands print).
        let logLevel = SettingsReader().logLevel()
        LoggingSystem.bootstrap { label in
            var handler = LineLogHandler(label: label)
            handler.logLevel = logLevel
            return handler
        }
        // Metrics too, once, here: libraries record through swift-metrics and never bootstrap it.
        MetricsSystem.bootstrap(metrics)
        await run(LiveGateCommand.self)
    }

    /// ArgumentParser's own async `main`, through a generic so the async `run()` is the one chosen.
    static func run<Root: AsyncParsableCommand>(_ root: Root.Type) async {
        await root.main(nil)
    }
}
