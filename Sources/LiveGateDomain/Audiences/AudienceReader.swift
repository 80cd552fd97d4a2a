import APNsCore
import Foundation

/// Reads a connected audience object (`custom_audience` on a start, `audience` of a segment), recording
/// each problem with the path of the part at fault, e.g.
/// `custom_audience.AND[1].OR[0].custom_attribute.comparison`.
package struct AudienceReader {
    /// `AND`/`OR` levels, the outermost included.
    static let maximumDepth = 5
    static let maximumFilters = 100
    static let maximumValueLength = 255
    static let maximumDays = 36_500.0

    let problems: ValidationProblems
    private var filters = 0

    init(problems: ValidationProblems) {
        self.problems = problems
    }

    /// The audience, or nil when any part of it is wrong (each problem is recorded).
    package static func read(_ value: JSONValue, at path: String, problems: ValidationProblems) -> Audience? {
        var reader = AudienceReader(problems: problems)
        let before = problems.messages.count
        let audience = reader.audience(value, at: path, depth: 0)
        if reader.filters > maximumFilters {
            problems.add("\(path) has \(reader.filters) filters; an audience takes at most \(maximumFilters)")
        }
        return problems.messages.count == before ? audience : nil
    }

    private mutating func audience(_ value: JSONValue, at path: String, depth: Int) -> Audience? {
        guard let object = value.objectValue, object.count == 1, let member = object.members.first else {
            problems.add(
                "\(path) must be an object with exactly one of AND, OR or custom_attribute, got \(describe(value))")
            return nil
        }
        let here = "\(path).\(member.key)"
        switch member.key {
        case "AND", "OR":
            guard depth < Self.maximumDepth else {
                problems.add("\(here) nests AND/OR deeper than \(Self.maximumDepth) levels")
                return nil
            }
            guard let parts = member.value.arrayValue, !parts.isEmpty else {
                problems.add("\(here) must be a non-empty array of filters or AND/OR objects, got \(describe(member.value))")
                return nil
            }
            var read: [Audience] = []
            for (index, part) in parts.enumerated() {
                if let audience = audience(part, at: "\(here)[\(index)]", depth: depth + 1) { read.append(audience) }
            }
            guard read.count == parts.count else { return nil }
            return member.key == "AND" ? .all(read) : .any(read)
        case "custom_attribute":
            filters += 1
            return filter(member.value, at: here).map(Audience.attribute)
        case "push_subscription_status", "email_subscription_status", "last_used_app":
            problems.add(
                "\(here) filters are not supported: LiveGate keeps no subscription states or app sessions; filter on custom_attribute (set by POST /users/track)"
            )
            return nil
        default:
            problems.add("\(here) is not a filter: use AND, OR or custom_attribute")
            return nil
        }
    }

    private func filter(_ value: JSONValue, at path: String) -> AttributeFilter? {
        guard let object = value.objectValue else {
            problems.add("\(path) must be an object with custom_attribute_name, comparison and value, got \(describe(value))")
            return nil
        }
        for key in object.keys where !["custom_attribute_name", "comparison", "value"].contains(key) {
            problems.add("\(path).\(key) is not a field of a custom_attribute filter")
            return nil
        }
        guard let name = object["custom_attribute_name"]?.stringValue,
            (1...255).contains(name.unicodeScalars.count), !name.utf8.contains(0)
        else {
            problems.add("\(path).custom_attribute_name is required: a string of 1 to 255 characters")
            return nil
        }
        guard let comparisonName = object["comparison"]?.stringValue else {
            problems.add("\(path).comparison is required: one of \(AttributeComparison.names.joined(separator: ", "))")
            return nil
        }
        let valuePath = "\(path).value"
        let comparison: AttributeComparison?
        switch comparisonName {
        case "equals": comparison = scalar(object["value"], at: valuePath).map(AttributeComparison.equals)
        case "not_equal", "does_not_equal": comparison = scalar(object["value"], at: valuePath).map(AttributeComparison.notEqual)
        case "matches_regex":
            comparison = text(object["value"], at: valuePath, what: "a regular expression").map(AttributeComparison.matchesRegex)
        case "does_not_match_regex":
            comparison = text(object["value"], at: valuePath, what: "a regular expression").map(AttributeComparison.doesNotMatchRegex)
        case "greater_than": comparison = number(object["value"], at: valuePath).map(AttributeComparison.greaterThan)
        case "greater_than_or_equal_to": comparison = number(object["value"], at: valuePath).map(AttributeComparison.greaterThanOrEqual)
        case "less_than": comparison = number(object["value"], at: valuePath).map(AttributeComparison.lessThan)
        case "less_than_or_equal_to": comparison = number(object["value"], at: valuePath).map(AttributeComparison.lessThanOrEqual)
        case "less_than_x_days_ago": comparison = days(object["value"], at: valuePath).map(AttributeComparison.lessThanDaysAgo)
        case "greater_than_x_days_ago": comparison = days(object["value"], at: valuePath).map(AttributeComparison.greaterThanDaysAgo)
        case "less_than_x_days_in_the_future":
            comparison = days(object["value"], at: valuePath).map(AttributeComparison.lessThanDaysInTheFuture)
        case "greater_than_x_days_in_the_future":
            comparison = days(object["value"], at: valuePath).map(AttributeComparison.greaterThanDaysInTheFuture)
        case "after": comparison = time(object["value"], at: valuePath).map(AttributeComparison.after)
        case "before": comparison = time(object["value"], at: valuePath).map(AttributeComparison.before)
        case "includes_value": comparison = text(object["value"], at: valuePath, what: "a string").map(AttributeComparison.includesValue)
        case "does_not_include_value":
            comparison = text(object["value"], at: valuePath, what: "a string").map(AttributeComparison.doesNotIncludeValue)
        case "exists": comparison = .exists
        case "does_not_exist": comparison = .doesNotExist
        default:
            problems.add(
                "\(path).comparison '\(comparisonName.prefix(64))' is not a comparison: use one of \(AttributeComparison.names.joined(separator: ", "))"
            )
            return nil
        }
        return comparison.map { AttributeFilter(name: name, comparison: $0) }
    }

    private func scalar(_ value: JSONValue?, at path: String) -> AttributeScalar? {
        if let bool = value?.boolValue { return .boolean(bool) }
        if value?.numberLexeme != nil { return number(value, at: path).map(AttributeScalar.number) }
        if value?.stringValue != nil { return text(value, at: path, what: "a string").map(AttributeScalar.string) }
        problems.add("\(path) must be a string, a number or a boolean, got \(describe(value))")
        return nil
    }

    private func text(_ value: JSONValue?, at path: String, what: String) -> String? {
        guard let text = value?.stringValue, (1...Self.maximumValueLength).contains(text.unicodeScalars.count),
            !text.utf8.contains(0)
        else {
            problems.add("\(path) must be \(what) of 1 to \(Self.maximumValueLength) characters, got \(describe(value))")
            return nil
        }
        return text
    }

    private func number(_ value: JSONValue?, at path: String) -> Double? {
        guard let lexeme = value?.numberLexeme, let number = Double(lexeme), number.magnitude <= CustomAttributeChange.maximumNumber
        else {
            problems.add("\(path) must be a number at most 1e300 either side of zero, got \(describe(value))")
            return nil
        }
        return number
    }

    private func days(_ value: JSONValue?, at path: String) -> Double? {
        guard let lexeme = value?.numberLexeme, let days = Double(lexeme), (0...Self.maximumDays).contains(days) else {
            problems.add("\(path) must be a number of days from 0 to \(Int(Self.maximumDays)), got \(describe(value))")
            return nil
        }
        return days
    }

    private func time(_ value: JSONValue?, at path: String) -> Date? {
        guard let text = value?.stringValue, let milliseconds = ISO8601Timestamp.epochMilliseconds(from: text) else {
            problems.add("\(path) must be an ISO 8601 date-time with a time zone, got \(describe(value))")
            return nil
        }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1_000)
    }

    private func describe(_ value: JSONValue?) -> String {
        guard let value else { return "nothing" }
        if let text = value.stringValue { return "'\(text.prefix(64))'" }
        return value.typeName
    }
}

extension AttributeComparison {
    /// Braze's names, as the 400 lists them.
    static let names = [
        "equals", "not_equal", "does_not_equal", "matches_regex", "does_not_match_regex", "greater_than", "greater_than_or_equal_to",
        "less_than", "less_than_or_equal_to", "less_than_x_days_ago", "greater_than_x_days_ago",
        "less_than_x_days_in_the_future", "greater_than_x_days_in_the_future", "after", "before", "includes_value",
        "does_not_include_value", "exists", "does_not_exist",
    ]
}
