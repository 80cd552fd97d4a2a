import Foundation
import LiveGateDomain

/// An audience in words, as `GET /segments/details` gives it (`text_description`).
enum AudienceDescription {
    static func text(_ audience: Audience) -> String {
        switch audience {
        case .all(let parts): return parts.map(grouped).joined(separator: " AND ")
        case .any(let parts): return parts.map(grouped).joined(separator: " OR ")
        case .attribute(let filter): return "\(filter.name) \(text(filter.comparison))"
        }
    }

    private static func grouped(_ audience: Audience) -> String {
        if case .attribute = audience { return text(audience) }
        return "(\(text(audience)))"
    }

    private static func text(_ comparison: AttributeComparison) -> String {
        switch comparison {
        case .equals(let value): "equals \(text(value))"
        case .notEqual(let value): "does not equal \(text(value))"
        case .matchesRegex(let pattern): "matches regex '\(pattern)'"
        case .doesNotMatchRegex(let pattern): "does not match regex '\(pattern)'"
        case .greaterThan(let number): "is greater than \(text(number))"
        case .greaterThanOrEqual(let number): "is at least \(text(number))"
        case .lessThan(let number): "is less than \(text(number))"
        case .lessThanOrEqual(let number): "is at most \(text(number))"
        case .lessThanDaysAgo(let days): "is less than \(text(days)) days ago"
        case .greaterThanDaysAgo(let days): "is more than \(text(days)) days ago"
        case .lessThanDaysInTheFuture(let days): "is less than \(text(days)) days in the future"
        case .greaterThanDaysInTheFuture(let days): "is more than \(text(days)) days in the future"
        case .after(let date): "is after \(DispatchJSON.time(date))"
        case .before(let date): "is before \(DispatchJSON.time(date))"
        case .includesValue(let value): "includes '\(value)'"
        case .doesNotIncludeValue(let value): "does not include '\(value)'"
        case .exists: "exists"
        case .doesNotExist: "does not exist"
        }
    }

    private static func text(_ value: AttributeScalar) -> String {
        switch value {
        case .string(let text): "'\(text)'"
        case .number(let number): text(number)
        case .boolean(let bool): bool ? "true" : "false"
        }
    }

    private static func text(_ number: Double) -> String {
        number == number.rounded() && number.magnitude < 1e15 ? String(Int64(number)) : String(number)
    }
}
