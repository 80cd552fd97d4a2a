@available(iOS 16.0, macOS 13.0, *)
extension PayloadSchema {
    /// What the gateway does with an update whose payload the registered type would not decode. Open: a
    /// newer gateway may know more modes.
    public struct Mode: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Refused with a 400 naming each JSON path, what was expected and what came; nothing is sent.
        public static let enforce = Mode(rawValue: "enforce")
        /// Accepted and sent, with a "Live Activity content-state mismatch" log entry and a metric: for a
        /// first look at what the app's server really sends.
        public static let warn = Mode(rawValue: "warn")
    }
}
