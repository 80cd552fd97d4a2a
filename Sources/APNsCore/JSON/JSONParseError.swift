/// Why a document is not valid JSON, and where: `offset` is the byte at which reading stopped.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of mistake. New codes may be added, so switch over them with a default.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Kind: String, Sendable {
            case unexpectedEndOfInput
            case unexpectedCharacter
            case invalidNumber
            case invalidString
            case invalidUTF8
            case tooDeep
            case trailingCharacters
        }

        private let kind: Kind

        private init(_ kind: Kind) {
            self.kind = kind
        }

        /// The input stopped inside a value, or held no value at all.
        public static let unexpectedEndOfInput = Code(.unexpectedEndOfInput)
        /// A byte that cannot start or continue what was being read (a trailing comma, a comment, `NaN`).
        public static let unexpectedCharacter = Code(.unexpectedCharacter)
        /// A number outside JSON's grammar, such as `01`, `1.` or `-`.
        public static let invalidNumber = Code(.invalidNumber)
        /// A bad escape, a lone UTF-16 surrogate, or an unescaped control character in a string.
        public static let invalidString = Code(.invalidString)
        /// Bytes inside a string that are not UTF-8.
        public static let invalidUTF8 = Code(.invalidUTF8)
        /// Arrays and objects nested deeper than the parser's limit.
        public static let tooDeep = Code(.tooDeep)
        /// More than whitespace after the document's one value.
        public static let trailingCharacters = Code(.trailingCharacters)

        public var description: String { kind.rawValue }
    }

    public let code: Code
    /// Byte offset into the input; the input's length when it ended too soon.
    public let offset: Int
    /// What went wrong and where, for a person: "unexpected character '}' at byte 17, expected ...".
    public let message: String

    public init(code: Code, offset: Int, message: String) {
        self.code = code
        self.offset = offset
        self.message = message
    }

    public var description: String { message }
}

extension JSONParseError {
    static func unexpectedEndOfInput(at offset: Int, expecting expected: String) -> JSONParseError {
        JSONParseError(
            code: .unexpectedEndOfInput, offset: offset,
            message: "unexpected end of input at byte \(offset), expected \(expected)")
    }

    static func unexpectedCharacter(_ byte: UInt8, at offset: Int, expecting expected: String) -> JSONParseError {
        JSONParseError(
            code: .unexpectedCharacter, offset: offset,
            message: "unexpected character \(describe(byte)) at byte \(offset), expected \(expected)")
    }

    static func invalidNumber(at offset: Int, _ problem: String) -> JSONParseError {
        JSONParseError(code: .invalidNumber, offset: offset, message: "invalid number at byte \(offset): \(problem)")
    }

    static func invalidString(at offset: Int, _ problem: String) -> JSONParseError {
        JSONParseError(code: .invalidString, offset: offset, message: "invalid string at byte \(offset): \(problem)")
    }

    static func invalidUTF8(_ byte: UInt8, at offset: Int) -> JSONParseError {
        JSONParseError(
            code: .invalidUTF8, offset: offset,
            message: "invalid UTF-8 at byte \(offset): no valid sequence starts with \(hex(byte))")
    }

    static func tooDeep(at offset: Int, limit: Int) -> JSONParseError {
        JSONParseError(
            code: .tooDeep, offset: offset,
            message: "arrays and objects nested more than \(limit) deep at byte \(offset)")
    }

    static func trailingCharacters(_ byte: UInt8, at offset: Int) -> JSONParseError {
        JSONParseError(
            code: .trailingCharacters, offset: offset,
            message: "unexpected character \(describe(byte)) at byte \(offset) after the end of the document")
    }

    /// Printable ASCII as itself in quotes, anything else as hex, so the message stays one readable line.
    static func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : hex(byte)
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0x0\(digits)" : "0x\(digits)"
    }
}
