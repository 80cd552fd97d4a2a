import APNsCore
import Foundation
import HTTPTypes

/// What `GET /message_activity_log` asks for: filters, page size and where to continue. Every
/// problem in the query string is reported at once, one `errors` entry per parameter.
public struct ActivityLogQuery: Sendable, Equatable {
    public static let defaultLimit = 50
    public static let maximumLimit = 100

    /// The app's identifier, as given (resolved to the workspace's app by the controller).
    public var appIdentifier: String?
    public var type: ActivityLogType?
    public var activityID: String?
    public var externalID: String?
    /// Inclusive.
    public var since: Date?
    /// Exclusive.
    public var until: Date?
    public var limit = defaultLimit
    public var cursor: ActivityLogCursor?

    public init() {}

    static let parameters: Set<String> = ["app_id", "type", "activity_id", "external_id", "since", "until", "limit", "cursor"]

    /// Parses the query string (form-encoded); throws a 400 that names every bad parameter.
    static func parse(_ queryString: String?) throws -> ActivityLogQuery {
        let parameters = FormQuery.pairs(queryString)
        var query = ActivityLogQuery()
        var problems: [String] = []
        func text(_ name: String) -> String? {
            let values = parameters.filter { $0.name == name }.map(\.value)
            guard let value = values.first else { return nil }
            if values.count > 1 { problems.append("\(name) may be given once") }
            if value.isEmpty || value.utf8.count > 256 || value.utf8.contains(0) {
                problems.append("\(name) must be 1 to 256 bytes")
                return nil
            }
            return String(value)
        }
        func date(_ name: String) -> Date? {
            guard let value = text(name) else { return nil }
            guard let seconds = ISO8601Timestamp.epochSeconds(from: value) else {
                problems.append("\(name) must be an ISO 8601 date-time with a zone, such as 2023-02-28T00:00:00+0000")
                return nil
            }
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        for name in Set(parameters.map(\.name)) where !Self.parameters.contains(name) {
            problems.append("\(name) is not a parameter of this endpoint")
        }
        query.appIdentifier = text("app_id")
        if let type = text("type") {
            if let known = ActivityLogType.all.first(where: { $0.rawValue == type }) {
                query.type = known
            } else {
                problems.append("type must be one of: " + ActivityLogType.all.map { "'\($0)'" }.joined(separator: ", "))
            }
        }
        query.activityID = text("activity_id")
        query.externalID = text("external_id")
        query.since = date("since")
        query.until = date("until")
        if let limit = text("limit") {
            if let value = Int(limit), (1...Self.maximumLimit).contains(value) {
                query.limit = value
            } else {
                problems.append("limit must be a whole number from 1 to \(Self.maximumLimit)")
            }
        }
        if let cursor = text("cursor") {
            query.cursor = ActivityLogCursor(token: cursor)
            if query.cursor == nil { problems.append("cursor is not one this endpoint gave out") }
        }
        if let since = query.since, let until = query.until, since >= until {
            problems.append("since must be before until")
        }
        guard problems.isEmpty else {
            throw APIError(.badRequest, "Invalid request: " + problems.joined(separator: "; "), errors: problems.sorted())
        }
        return query
    }
}
