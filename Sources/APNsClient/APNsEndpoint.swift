import Foundation

/// Where an app's pushes go: Apple's production or sandbox service, or a URL of one's own
/// (`http://host:port` means HTTP/2 without TLS, for local simulators).
public struct APNsEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// What is stored and what the CLI takes: `production`, `sandbox` or the URL.
    public let rawValue: String
    /// The base URL requests go to.
    public let url: URL
    /// `url` as text without a trailing slash, made once: every push's URL starts with it.
    public let baseURL: String

    public static let production = APNsEndpoint(trusted: "production", url: "https://api.push.apple.com:443")
    public static let sandbox = APNsEndpoint(trusted: "sandbox", url: "https://api.sandbox.push.apple.com:443")

    private init(trusted rawValue: String, url: String) {
        self.rawValue = rawValue
        self.url = URL(string: url)!
        self.baseURL = url
    }

    public init?(rawValue: String) {
        switch rawValue {
        case "production": self = .production
        case "sandbox": self = .sandbox
        default:
            guard let url = URL(string: rawValue), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty,
                url.path.isEmpty || url.path == "/", url.query == nil, url.user == nil
            else { return nil }
            self.rawValue = rawValue
            self.url = url
            let text = url.absoluteString
            self.baseURL = text.hasSuffix("/") ? String(text.dropLast()) : text
        }
    }

    /// True for `http://` endpoints: HTTP/2 with prior knowledge, no TLS.
    public var isCleartext: Bool { url.scheme?.lowercased() == "http" }

    public var description: String { rawValue }
}
