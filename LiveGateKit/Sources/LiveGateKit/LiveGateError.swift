import Foundation

/// A problem the SDK met, given to the app through `LiveGate.errors`: the SDK never crashes or drops a
/// report silently. Errors are structs with a `code`; their text never holds a token or a JWT.
@available(iOS 16.0, macOS 13.0, *)
public struct LiveGateError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The gateway refused a report for good (a 4xx other than 401, 408 and 429): it was dropped.
        public static let reportRefused = Code(rawValue: "report_refused")
        /// The gateway could not be reached, or answered 5xx or 429: the report waits and is sent again.
        public static let gatewayUnavailable = Code(rawValue: "gateway_unavailable")
        /// The gateway refused the SDK authentication token, even a fresh one: the report waits.
        public static let authenticationFailed = Code(rawValue: "authentication_failed")
        /// The JWT provider threw.
        public static let tokenProviderFailed = Code(rawValue: "token_provider_failed")
        /// The outbox could not be read or written in the storage folder.
        public static let storageFailed = Code(rawValue: "storage_failed")
        /// A channel lookup or an activity request failed.
        public static let activityRequestFailed = Code(rawValue: "activity_request_failed")
    }

    public var code: Code
    /// For a person: what happened and what the SDK did.
    public var message: String
    /// The gateway's HTTP status, when it answered.
    public var status: Int?
    /// The route the report went to, such as `/push_token_tag`.
    public var route: String?

    public init(code: Code, message: String, status: Int? = nil, route: String? = nil) {
        self.code = code
        self.message = message
        self.status = status
        self.route = route
    }

    public var description: String {
        "\(code): \(message)" + (status.map { " (HTTP \($0))" } ?? "") + (route.map { " [\($0)]" } ?? "")
    }
}
