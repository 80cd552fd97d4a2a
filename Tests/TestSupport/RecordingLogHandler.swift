import Logging
import NIOConcurrencyHelpers

/// Keeps every log entry in memory so a test can check what was logged (and what never was).
public final class LogRecorder: Sendable {
    public struct Entry: Sendable {
        public let level: Logger.Level
        public let message: String
        public let metadata: Logger.Metadata
    }

    private let entries = NIOLockedValueBox<[Entry]>([])

    public init() {}

    public var all: [Entry] { entries.withLockedValue { $0 } }

    public func logger(label: String = "test") -> Logger {
        var logger = Logger(label: label) { _ in Handler(recorder: self) }
        logger.logLevel = .trace
        return logger
    }

    fileprivate func append(_ entry: Entry) {
        entries.withLockedValue { $0.append(entry) }
    }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            recorder.append(
                Entry(level: event.level, message: event.message.description, metadata: metadata.merging(event.metadata ?? [:]) { $1 }))
        }
    }
}
