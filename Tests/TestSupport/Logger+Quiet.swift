import Logging

extension Logger {
    /// Warnings and errors only: the gateway's and the simulator's info lines would drown the test report.
    package static var quiet: Logger {
        var logger = Logger(label: "test.gateway")
        logger.logLevel = .warning
        return logger
    }
}
