extension JSONValue {
    /// Whether this is JSON `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The boolean, if this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number's text as the client wrote it, if this is a number.
    public var numberLexeme: String? {
        if case .number(let lexeme) = self { return lexeme }
        return nil
    }

    /// The number read as the nearest `Double`, if this is a number. Magnitudes beyond `Double`'s
    /// range read as infinity.
    public var doubleValue: Double? {
        numberLexeme.flatMap { Double($0) }
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The object, if this is an object.
    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The member named `key` if this is an object that has one (the last, if it is repeated).
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// The JSON type's name, for messages such as "must be a string, got number".
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// A number from an integer, written in decimal.
    public static func integer(_ value: some BinaryInteger) -> JSONValue {
        .number(String(value))
    }
}
