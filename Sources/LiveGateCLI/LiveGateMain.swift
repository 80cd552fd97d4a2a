import ArgumentParser
import LiveGate
import Logging

@main
enum LiveGateMain {
    static func main() async {
        // Logging is bootstrapped once, here: to standard error, so standard output carries only what
        // scripts read (the identifiers and keys the create commands print).
        let logLevel = Settings.logLevel()
        LoggingSystem.bootstrap { label in
            var handler = LineLogHandler(label: label)
            handler.logLevel = logLevel
            return handler
        }
        await run(LiveGateCommand.self)
    }

    /// ArgumentParser's own async `main`, through a generic so the async `run()` is the one chosen.
    static func run<Root: AsyncParsableCommand>(_ root: Root.Type) async {
        await root.main(nil)
    }
}
