/// Strict RFC 8259 reader over raw bytes: one pass, no look-back, no Foundation. Recursion goes one
/// level per nested array or object, so `maxDepth` also bounds the stack it uses.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var position = 0
    var depth = 0
    /// Reused by every string that has escapes, so each does not allocate a buffer of its own.
    var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// Exactly one value, with optional whitespace around it.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.position < bytes.count {
            throw .trailingCharacters(bytes[parser.position], at: parser.position)
        }
        return value
    }

    var isAtEnd: Bool { position >= bytes.count }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case .space, .tab, .lineFeed, .carriageReturn: position += 1
            default: return
            }
        }
    }

    /// The current byte; running out here means the document was cut short.
    func peek(expecting expected: String) throws(JSONParseError) -> UInt8 {
        guard position < bytes.count else { throw .unexpectedEndOfInput(at: position, expecting: expected) }
        return bytes[position]
    }

    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        let byte = try peek(expecting: "a value")
        switch byte {
        case .openBrace: return try parseObject()
        case .openBracket: return try parseArray()
        case .quote: return .string(try parseString())
        case .minus, .digitZero ... .digitNine: return .number(try parseNumber())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        default:
            throw .unexpectedCharacter(byte, at: position, expecting: "a value")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for byte in expected {
            guard try peek(expecting: "\(literal)") == byte else {
                throw .unexpectedCharacter(bytes[position], at: position, expecting: "\(literal)")
            }
            position += 1
        }
    }

    mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        var elements: [JSONValue] = []
        skipWhitespace()
        if try peek(expecting: "a value or ']'") == .closeBracket {
            return leaveContainer(.array(elements))
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            let byte = try peek(expecting: "',' or ']'")
            switch byte {
            case .comma: position += 1
            case .closeBracket: return leaveContainer(.array(elements))
            default: throw .unexpectedCharacter(byte, at: position, expecting: "',' or ']'")
            }
        }
    }

    mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        var members: [JSONObject.Member] = []
        skipWhitespace()
        if try peek(expecting: "a member name in double quotes or '}'") == .closeBrace {
            return leaveContainer(.object(JSONObject(members: members)))
        }
        while true {
            skipWhitespace()
            let first = try peek(expecting: "a member name in double quotes")
            guard first == .quote else {
                throw .unexpectedCharacter(first, at: position, expecting: "a member name in double quotes")
            }
            let key = try parseString()
            skipWhitespace()
            let separator = try peek(expecting: "':'")
            guard separator == .colon else { throw .unexpectedCharacter(separator, at: position, expecting: "':'") }
            position += 1
            skipWhitespace()
            members.append(JSONObject.Member(key: key, value: try parseValue()))
            skipWhitespace()
            let byte = try peek(expecting: "',' or '}'")
            switch byte {
            case .comma: position += 1
            case .closeBrace: return leaveContainer(.object(JSONObject(members: members)))
            default: throw .unexpectedCharacter(byte, at: position, expecting: "',' or '}'")
            }
        }
    }

    /// Steps over an opening bracket or brace, refusing to go deeper than the limit.
    mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        guard depth <= maxDepth else { throw .tooDeep(at: position, limit: maxDepth) }
        position += 1
    }

    /// Steps over the closing bracket or brace of `value`.
    mutating func leaveContainer(_ value: JSONValue) -> JSONValue {
        depth -= 1
        position += 1
        return value
    }
}
