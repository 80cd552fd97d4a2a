import APNsCore

/// What a mismatch says came: `string "1"`, `number 1.5`, `boolean true`, `null`, `object`, `array`.
/// Long strings and numbers are cut, so a message stays one readable line whatever the client sent.
enum PayloadValueText {
    static let maximumCharacters = 40

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let value): "boolean \(value)"
        case .number(let lexeme): "number \(shortened(lexeme))"
        case .string(let text): "string \(quoted(text))"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The value as compact JSON, cut like `describe`'s: for listing `enum` values.
    static func json(_ value: JSONValue) -> String {
        if case .string(let text) = value { return quoted(text) }
        return shortened(value.description)
    }

    /// JSON-quoted, cut to ``maximumCharacters`` with `…` inside the quotes.
    static func quoted(_ text: String) -> String {
        guard text.count > maximumCharacters else { return JSONValue.string(text).description }
        let escaped = JSONValue.string(String(text.prefix(maximumCharacters))).description
        return escaped.dropLast() + "…\""
    }

    static func shortened(_ text: String) -> String {
        text.count > maximumCharacters ? text.prefix(maximumCharacters) + "…" : text
    }
}
