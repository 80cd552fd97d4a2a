import Foundation

/// Where an app's pushes go: Apple's production or sandbox service, or a URL of one's own
/// (`http://host:port` means HTTP/2 without TLS, for local simulators). Broadcast channels are
/// managed on a host of their own (``managementBaseURL``).
public struct APNsEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// What is stored and what the CLI takes: `production`, `sandbox` or the URL.
    public let rawValue: String
    /// The base URL requests go to.
    public let url: URL
    /// `url` as text without a trailing slash, made once: every push's URL starts with it.
    public let baseURL: String
    /// Where channel management requests go, without a trailing slash: Apple's management host for
    /// production and sandbox, the endpoint's own URL for a custom one (the simulator serves both)
    /// unless ``managed(at:)`` names another.
    public let managementBaseURL: String

    public static let production = APNsEndpoint(
        trusted: "production", url: "https://api.push.apple.com:443",
        management: "https://api-manage-broadcast.push.apple.com:2196")
    public static let sandbox = APNsEndpoint(
        trusted: "sandbox", url: "https://api.sandbox.push.apple.com:443",
        management: "https://api-manage-broadcast.sandbox.push.apple.com:2195")

    private init(trusted rawValue: String, url: String, management: String) {
        self.rawValue = rawValue
        self.url = URL(string: url)!
        self.baseURL = url
        self.managementBaseURL = management
    }

    public init?(rawValue: String) {
        switch rawValue {
        case "production": self = .production
        case "sandbox": self = .sandbox
        default:
            guard let validated = Self.validated(rawValue) else { return nil }
            self.rawValue = rawValue
            self.url = validated.url
            self.baseURL = validated.baseURL
            self.managementBaseURL = validated.baseURL
        }
    }

    /// This endpoint with channel management at `managementURL` instead (a URL as ``init(rawValue:)``
    /// takes one); nil if it is not such a URL.
    public func managed(at managementURL: String) -> APNsEndpoint? {
        guard let management = Self.validated(managementURL) else { return nil }
        return APNsEndpoint(trusted: rawValue, url: baseURL, management: management.baseURL)
    }

    /// An http(s) URL with a host and nothing after it, and its text without a trailing slash.
    private static func validated(_ text: String) -> (url: URL, baseURL: String)? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty,
            url.path.isEmpty || url.path == "/", url.query == nil, url.user == nil
        else { return nil }
        let absolute = url.absoluteString
        return (url, absolute.hasSuffix("/") ? String(absolute.dropLast()) : absolute)
    }

    /// True for `http://` endpoints: HTTP/2 with prior knowledge, no TLS.
    public var isCleartext: Bool { url.scheme?.lowercased() == "http" }

    public var description: String { rawValue }
}
