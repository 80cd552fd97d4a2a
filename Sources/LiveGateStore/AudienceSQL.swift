import Foundation
import LiveGateDomain
import PostgresClient

/// An audience as a SQL condition on one user id column: each filter an `EXISTS` (or, negated,
/// `NOT EXISTS`) on `user_attributes` through its primary key (user, name), so a page of push-to-start
/// tokens is filtered by index probes of its own users, never by reading the audience whole.
struct AudienceSQL {
    private(set) var parameters: [(any PostgresBindable)?]
    private let userColumn: String

    /// `parameters`: those the enclosing statement binds before the audience's; the audience's follow.
    init(userColumn: String, parameters: [(any PostgresBindable)?]) {
        self.userColumn = userColumn
        self.parameters = parameters
    }

    mutating func condition(_ audience: Audience) -> String {
        switch audience {
        case .all(let parts): return "(" + parts.map { condition($0) }.joined(separator: " AND ") + ")"
        case .any(let parts): return "(" + parts.map { condition($0) }.joined(separator: " OR ") + ")"
        case .attribute(let filter): return condition(filter)
        }
    }

    private mutating func condition(_ filter: AttributeFilter) -> String {
        let name = bind(filter.name)
        func having(_ test: String?) -> String {
            let extra = test.map { " AND \($0)" } ?? ""
            return "EXISTS (SELECT 1 FROM user_attributes a WHERE a.user_id = \(userColumn) AND a.name = \(name)\(extra))"
        }
        switch filter.comparison {
        case .equals(let value): return having(equal(value))
        case .notEqual(let value): return "NOT " + having(equal(value))
        // Case-insensitive, as Braze's regular expressions are.
        case .matchesRegex(let pattern): return having("a.kind = 'string' AND a.string_value ~* \(bind(pattern))")
        case .doesNotMatchRegex(let pattern): return "NOT " + having("a.kind = 'string' AND a.string_value ~* \(bind(pattern))")
        case .greaterThan(let number): return having("a.kind = 'number' AND a.number_value > \(bind(number))::float8")
        case .greaterThanOrEqual(let number): return having("a.kind = 'number' AND a.number_value >= \(bind(number))::float8")
        case .lessThan(let number): return having("a.kind = 'number' AND a.number_value < \(bind(number))::float8")
        case .lessThanOrEqual(let number): return having("a.kind = 'number' AND a.number_value <= \(bind(number))::float8")
        case .lessThanDaysAgo(let days):
            return having("a.kind = 'time' AND a.time_value > now() - \(interval(days)) AND a.time_value <= now()")
        case .greaterThanDaysAgo(let days): return having("a.kind = 'time' AND a.time_value < now() - \(interval(days))")
        case .lessThanDaysInTheFuture(let days):
            return having("a.kind = 'time' AND a.time_value >= now() AND a.time_value < now() + \(interval(days))")
        case .greaterThanDaysInTheFuture(let days): return having("a.kind = 'time' AND a.time_value > now() + \(interval(days))")
        case .after(let date): return having("a.kind = 'time' AND a.time_value > \(bind(date))::timestamptz")
        case .before(let date): return having("a.kind = 'time' AND a.time_value < \(bind(date))::timestamptz")
        case .includesValue(let value): return having("a.kind = 'array' AND a.array_value @> ARRAY[\(bind(value))::text]")
        case .doesNotIncludeValue(let value):
            return "NOT " + having("a.kind = 'array' AND a.array_value @> ARRAY[\(bind(value))::text]")
        case .exists: return having(nil)
        case .doesNotExist: return "NOT " + having(nil)
        }
    }

    private mutating func equal(_ value: AttributeScalar) -> String {
        switch value {
        case .string(let text): return "a.kind = 'string' AND a.string_value = \(bind(text))"
        case .number(let number): return "a.kind = 'number' AND a.number_value = \(bind(number))::float8"
        case .boolean(let bool): return "a.kind = 'boolean' AND a.boolean_value = \(bind(bool))::boolean"
        }
    }

    private mutating func interval(_ days: Double) -> String {
        "\(bind(days))::float8 * interval '1 day'"
    }

    private mutating func bind(_ value: any PostgresBindable) -> String {
        parameters.append(value)
        return "$\(parameters.count)"
    }
}
