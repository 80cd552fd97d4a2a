import APNsCore
import Foundation
import LiveGateDomain

/// Reads typed fields out of a JSON object, recording a problem a person can act on (which field, what
/// was expected, what came) for each one that is missing or wrong. A JSON `null` counts as absent.
struct FieldReader {
    let object: JSONObject
    /// The dotted path of `object` inside the body, e.g. `notification.alert.`; empty at the top.
    let path: String
    let problems: ValidationProblems

    init(_ object: JSONObject, path: String = "", problems: ValidationProblems) {
        self.object = object
        self.path = path
        self.problems = problems
    }

    func name(_ field: String) -> String { path + field }

    /// The value, or nil when it is absent or null.
    func value(_ field: String) -> JSONValue? {
        guard let value = object[field], !value.isNull else { return nil }
        return value
    }

    func has(_ field: String) -> Bool { value(field) != nil }

    /// Whether the field is given as an explicit `null`, for the few fields where that differs from
    /// leaving it out.
    func isNull(_ field: String) -> Bool { object[field]?.isNull == true }

    func string(_ field: String, required: Bool = false, maxLength: Int = 512) -> String? {
        guard let value = value(field) else {
            if required { problems.add("\(name(field)) is required") }
            return nil
        }
        guard let string = value.stringValue else {
            problems.add("\(name(field)) must be a string, got \(value.typeName)")
            return nil
        }
        if string.isEmpty {
            problems.add("\(name(field)) must not be empty")
            return nil
        }
        if string.utf8.contains(0) {
            // PostgreSQL text cannot hold NUL, and C strings would cut the value short at it.
            problems.add("\(name(field)) must not contain NUL characters")
            return nil
        }
        // Characters (Unicode scalars), as JSON Schema's maxLength counts them in openapi.yaml.
        let length = string.unicodeScalars.count
        if length > maxLength {
            problems.add("\(name(field)) must be at most \(maxLength) characters, got \(length)")
            return nil
        }
        return string
    }

    func object(_ field: String, required: Bool = false) -> JSONObject? {
        guard let value = value(field) else {
            if required { problems.add("\(name(field)) is required") }
            return nil
        }
        guard let object = value.objectValue else {
            problems.add("\(name(field)) must be an object, got \(value.typeName)")
            return nil
        }
        return object
    }

    func bool(_ field: String) -> Bool? {
        guard let value = value(field) else { return nil }
        guard let bool = value.boolValue else {
            problems.add("\(name(field)) must be true or false, got \(value.typeName)")
            return nil
        }
        return bool
    }

    /// A number, kept as the client wrote it.
    func number(_ field: String) -> JSONValue? {
        guard let value = value(field) else { return nil }
        guard value.numberLexeme != nil else {
            problems.add("\(name(field)) must be a number, got \(value.typeName)")
            return nil
        }
        return value
    }

    /// An ISO-8601 date-time with a zone, as epoch seconds.
    func date(_ field: String) -> Int64? {
        dateTime(field, example: "2023-02-28T00:00:00+0000", ISO8601Timestamp.epochSeconds(from:))
    }

    /// An ISO-8601 date-time with a zone, to the millisecond (a fraction beyond rounds up).
    func instant(_ field: String) -> Date? {
        dateTime(field, example: "2023-02-28T18:30:00+0000") { text in
            ISO8601Timestamp.epochMilliseconds(from: text).map { Date(timeIntervalSince1970: Double($0) / 1_000) }
        }
    }

    /// A string read by `parse`, or a problem showing what came and an `example` of what is wanted.
    private func dateTime<Value>(_ field: String, example: String, _ parse: (String) -> Value?) -> Value? {
        guard let value = value(field) else { return nil }
        guard let text = value.stringValue, let parsed = parse(text) else {
            let shown = value.stringValue.map { "'\($0.prefix(64))'" } ?? value.typeName
            problems.add("\(name(field)) must be an ISO-8601 date-time with a time zone, such as \(example); got \(shown)")
            return nil
        }
        return parsed
    }

    func priority(_ field: String) -> APNsPriority? {
        guard let value = value(field) else { return nil }
        guard let number = value.wholeNumber, let priority = APNsPriority(rawValue: number) else {
            problems.add("\(name(field)) must be 5 or 10")
            return nil
        }
        return priority
    }

    /// An array of non-empty strings.
    func strings(_ field: String, maxLength: Int = 512) -> [String]? {
        guard let value = value(field) else { return nil }
        guard let array = value.arrayValue else {
            problems.add("\(name(field)) must be an array of strings, got \(value.typeName)")
            return nil
        }
        var strings: [String] = []
        for (index, element) in array.enumerated() {
            guard let string = element.stringValue, !string.isEmpty, string.unicodeScalars.count <= maxLength,
                !string.utf8.contains(0)
            else {
                problems.add("\(name(field))[\(index)] must be a non-empty string of at most \(maxLength) characters")
                return nil
            }
            strings.append(string)
        }
        return strings
    }

    /// This object read as a user alias (`alias_name` and `alias_label`, both required).
    func userAlias() -> UserAlias? {
        guard let name = string("alias_name", required: true), let label = string("alias_label", required: true) else {
            return nil
        }
        return UserAlias(label: label, name: name)
    }

    /// A nested object's reader, or nil when the field is absent or not an object.
    func nested(_ field: String, required: Bool = false) -> FieldReader? {
        object(field, required: required).map { FieldReader($0, path: name(field) + ".", problems: problems) }
    }
}
