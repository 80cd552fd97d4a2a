extension JSONValue {
    /// Compact JSON: no whitespace, members in stored order, numbers as their lexeme, strings
    /// escaped only where RFC 8259 requires. Parsing the result gives back an equal value.
    public func serialized() -> [UInt8] {
        var bytes: [UInt8] = []
        serialize(into: &bytes)
        return bytes
    }

    /// Appends the compact form of ``serialized()`` to `bytes`, so callers can build larger documents
    /// in one buffer.
    public func serialize(into bytes: inout [UInt8]) {
        switch self {
        case .null:
            bytes.appendRaw("null")
        case .bool(let value):
            bytes.appendRaw(value ? "true" : "false")
        case .number(let lexeme):
            bytes.append(contentsOf: lexeme.utf8)
        case .string(let string):
            bytes.appendJSONString(string)
        case .array(let elements):
            bytes.append(.openBracket)
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(.comma) }
                element.serialize(into: &bytes)
            }
            bytes.append(.closeBracket)
        case .object(let object):
            object.serialize(into: &bytes)
        }
    }
}

extension JSONObject {
    /// Compact JSON for the object, members in stored order (repeats included).
    public func serialized() -> [UInt8] {
        var bytes: [UInt8] = []
        serialize(into: &bytes)
        return bytes
    }

    /// Appends the compact form of ``serialized()`` to `bytes`.
    public func serialize(into bytes: inout [UInt8]) {
        bytes.append(.openBrace)
        for (index, member) in members.enumerated() {
            if index > 0 { bytes.append(.comma) }
            bytes.appendJSONString(member.key)
            bytes.append(.colon)
            member.value.serialize(into: &bytes)
        }
        bytes.append(.closeBrace)
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text, handy in logs and test failures.
    public var description: String {
        String(decoding: serialized(), as: UTF8.self)
    }
}
