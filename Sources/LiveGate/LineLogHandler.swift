import LiveGateAPI
import LiveGateDomain
import LiveGateStore
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One line per log event, in swift-log's `StreamLogHandler` format, to standard error by default.
///
/// The difference is when metadata is rendered: `StreamLogHandler` renders on every metadata change,
/// and every request sets some (its id, its API key), so it paid a rendering per request even with
/// nothing logged. This handler renders only when a line is actually written.
package struct LineLogHandler: LogHandler {
    package var logLevel: Logger.Level = .info
    package var metadata: Logger.Metadata = [:]
    package var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let write: @Sendable (String) -> Void

    package init(
        label: String, metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider,
        write: @escaping @Sendable (String) -> Void = LineLogHandler.writeToStandardError
    ) {
        self.label = label
        self.metadataProvider = metadataProvider
        self.write = write
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let explicit = event.metadata { merged.merge(explicit) { $1 } }
        if let error = event.error { merged["error.message"] = "\(error)" }
        let rendered = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        write("\(Self.timestamp()) \(event.level) \(label):\(rendered) [\(event.source)] \(event.message)\n")
    }

    @Sendable package static func writeToStandardError(_ line: String) {
        // One write(2) per line, so lines from concurrent requests do not interleave.
        var line = line
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }

    static func timestamp() -> String {
        var buffer = [Int8](repeating: 0, count: 32)
        var now = time(nil)
        var utc = tm()
        gmtime_r(&now, &utc)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &utc)
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
