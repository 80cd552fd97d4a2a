import APNsCore
import Foundation
import LiveGateDomain

/// The query string read: every problem in it is reported at once, one `errors` entry per parameter.
extension ActivityLogQuery {
    static let parameters: Set<String> = [
        "app_id", "type", "activity_id", "external_id", "dispatch_id", "since", "until", "limit", "cursor",
    ]

    /// Parses the query string (form-encoded); throws a 400 that names every bad parameter.
    static func parse(_ queryString: String?) throws -> ActivityLogQuery {
        var parameters = QueryParameters(queryString, allowed: Self.parameters)
        var query = ActivityLogQuery()
        func date(_ name: String) -> Date? {
            guard let value = parameters.text(name) else { return nil }
            guard let seconds = ISO8601Timestamp.epochSeconds(from: value) else {
                parameters.problem("\(name) must be an ISO 8601 date-time with a zone, such as 2023-02-28T00:00:00+0000")
                return nil
            }
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        query.appIdentifier = parameters.text("app_id")
        if let type = parameters.text("type") {
            if let known = ActivityLogType.all.first(where: { $0.rawValue == type }) {
                query.type = known
            } else {
                parameters.problem("type must be one of: " + ActivityLogType.all.map { "'\($0)'" }.joined(separator: ", "))
            }
        }
        query.activityID = parameters.text("activity_id")
        query.externalID = parameters.text("external_id")
        if let dispatch = parameters.text("dispatch_id") {
            query.dispatchID = UUID(uuidString: dispatch)
            if query.dispatchID == nil {
                parameters.problem("dispatch_id must be a UUID, such as the dispatch_id a message call answered")
            }
        }
        query.since = date("since")
        query.until = date("until")
        query.limit = parameters.limit(default: Self.defaultLimit, maximum: Self.maximumLimit)
        query.cursor = parameters.cursor()
        if let since = query.since, let until = query.until, since >= until {
            parameters.problem("since must be before until")
        }
        // A bound before year 1 (ISO 8601's year 0, which the pattern in openapi.yaml allows) is bound
        // as year 1 (`PostgresTimestamp`): no entry is that old.
        try parameters.throwIfAny()
        return query
    }
}
