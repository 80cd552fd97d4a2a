import APNsCore
import Foundation
import LiveGateDomain

/// A validated `POST /webhooks` body: where to send, which event types, and for one app or all.
struct WebhookRequest {
    var url: String
    var eventTypes: [EventType]
    var appID: String?

    static func parse(_ body: JSONObject, allowsHTTP: Bool) throws(APIError) -> WebhookRequest {
        let problems = ValidationProblems()
        let fields = FieldReader(body, problems: problems)
        let url = fields.string("url", required: true, maxLength: 2048)
        if let url, let problem = urlProblem(url, allowsHTTP: allowsHTTP) { problems.add(problem) }
        var types: [EventType] = []
        if let names = fields.strings("events", maxLength: 64) {
            if names.isEmpty { problems.add("events must name at least one event type") }
            for name in names {
                let type = EventType(rawValue: name)
                if EventType.all.contains(type) {
                    if !types.contains(type) { types.append(type) }
                } else {
                    problems.add(
                        "events: '\(name.prefix(64))' is not an event type; known types: \(EventType.all.map(\.rawValue).joined(separator: ", "))"
                    )
                }
            }
        } else if !fields.has("events") {
            problems.add("events is required: an array of event types")
        }
        let appID = fields.string("app_id", maxLength: 128)
        try problems.throwIfAny()
        return WebhookRequest(url: url!, eventTypes: types, appID: appID)
    }

    /// `https://` with a host; `http://` only to a loopback host unless the gateway allows it for any.
    static func urlProblem(_ text: String, allowsHTTP: Bool) -> String? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else { return "url must be an absolute https:// URL" }
        switch scheme {
        case "https": return nil
        case "http":
            if allowsHTTP || isLoopback(host) { return nil }
            return "url must be https:// (http:// is allowed only to loopback hosts unless LIVEGATE_WEBHOOK_ALLOW_HTTP is on)"
        default: return "url must be an https:// URL, not \(scheme.prefix(16))://"
        }
    }

    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased()
        return host == "localhost" || host == "[::1]" || host == "::1" || host.hasPrefix("127.")
    }
}
