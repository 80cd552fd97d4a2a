import APNsCore
import Testing

@Suite("Refusing invalid JSON")
struct JSONParseErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let document: String
        let code: JSONParseError.Code
        let offset: Int
        var testDescription: String { "\(document.debugDescription) → \(code) at \(offset)" }

        init(_ document: String, _ code: JSONParseError.Code, at offset: Int) {
            self.document = document
            self.code = code
            self.offset = offset
        }
    }

    @Test(arguments: [
        Case("", .unexpectedEndOfInput, at: 0),
        Case("   ", .unexpectedEndOfInput, at: 3),
        Case("[1, 2", .unexpectedEndOfInput, at: 5),
        Case(#"{"a": "#, .unexpectedEndOfInput, at: 6),
        Case(#"{"a""#, .unexpectedEndOfInput, at: 4),
        Case(#""abc"#, .unexpectedEndOfInput, at: 4),
        Case("tru", .unexpectedEndOfInput, at: 3),
        Case(#""\u12"#, .unexpectedEndOfInput, at: 5),
    ])
    func endOfInput(_ bad: Case) throws {
        try check(bad)
    }

    @Test(arguments: [
        Case(#"{"a": 1,}"#, .unexpectedCharacter, at: 8),
        Case("[1, 2,]", .unexpectedCharacter, at: 6),
        Case("[1 2]", .unexpectedCharacter, at: 3),
        Case(#"{"a" 1}"#, .unexpectedCharacter, at: 5),
        Case("{a: 1}", .unexpectedCharacter, at: 1),
        Case("{'a': 1}", .unexpectedCharacter, at: 1),
        Case("// comment\n{}", .unexpectedCharacter, at: 0),
        Case("[1 /* two */]", .unexpectedCharacter, at: 3),
        Case("NaN", .unexpectedCharacter, at: 0),
        Case("Infinity", .unexpectedCharacter, at: 0),
        Case("trux", .unexpectedCharacter, at: 3),
        Case("nul!", .unexpectedCharacter, at: 3),
        Case("+1", .unexpectedCharacter, at: 0),
        Case(".5", .unexpectedCharacter, at: 0),
        Case("\u{FEFF}{}", .unexpectedCharacter, at: 0),
    ])
    func unexpectedCharacters(_ bad: Case) throws {
        try check(bad)
    }

    @Test(arguments: [
        Case("01", .invalidNumber, at: 1),
        Case("-01", .invalidNumber, at: 2),
        Case("1.", .invalidNumber, at: 2),
        Case("1.e3", .invalidNumber, at: 2),
        Case("-", .invalidNumber, at: 1),
        Case("-Infinity", .invalidNumber, at: 1),
        Case("1e", .invalidNumber, at: 2),
        Case("1e+", .invalidNumber, at: 3),
        Case("[00]", .invalidNumber, at: 2),
    ])
    func invalidNumbers(_ bad: Case) throws {
        try check(bad)
    }

    @Test(arguments: [
        Case(#""\x""#, .invalidString, at: 1),
        Case(#""ab\'""#, .invalidString, at: 3),
        Case(#""\u12G4""#, .invalidString, at: 1),
        Case(#""\ud83d""#, .invalidString, at: 1),
        Case(#""\ud83d\u0041""#, .invalidString, at: 1),
        Case(#""\ud83d\n""#, .invalidString, at: 1),
        Case(#""x\udc3c""#, .invalidString, at: 2),
        Case("\"a\nb\"", .invalidString, at: 2),
        Case("\"tab\there\"", .invalidString, at: 4),
        Case("\"\u{0}\"", .invalidString, at: 1),
    ])
    func invalidStrings(_ bad: Case) throws {
        try check(bad)
    }

    @Test(arguments: [
        Case("{} {}", .trailingCharacters, at: 3),
        Case("1 2", .trailingCharacters, at: 2),
        Case("[1]]", .trailingCharacters, at: 3),
        Case("1.5.3", .trailingCharacters, at: 3),
        Case("truex", .trailingCharacters, at: 4),
    ])
    func trailingCharacters(_ bad: Case) throws {
        try check(bad)
    }

    @Test(
        arguments: [
            // Overlong "/", a lone continuation byte, bytes that never occur, an encoded surrogate
            // (U+D800), a scalar past U+10FFFF, an overlong 3-byte form, and a sequence cut short.
            ([0x22, 0xC0, 0xAF, 0x22], 1),
            ([0x22, 0x61, 0x80, 0x22], 2),
            ([0x22, 0xFF, 0x22], 1),
            ([0x22, 0xED, 0xA0, 0x80, 0x22], 1),
            ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1),
            ([0x22, 0xE0, 0x80, 0xAF, 0x22], 1),
            ([0x22, 0xE6, 0x97, 0x22], 1),
            ([0x22, 0xF0, 0x9F, 0x90], 1),
        ] as [([UInt8], Int)])
    func invalidUTF8InStrings(bytes: [UInt8], offset: Int) throws {
        let error = try #require(parseError(bytes))
        #expect(error.code == .invalidUTF8)
        #expect(error.offset == offset)
    }

    @Test func nestingBeyondTheLimitIsRefusedAtTheOpeningBracket() throws {
        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        let error = try #require(parseError(tooDeep))
        #expect(error.code == .tooDeep)
        #expect(error.offset == 64)

        let objects = String(repeating: "{\"a\":", count: 4) + "1" + String(repeating: "}", count: 4)
        let custom = try #require(parseError(objects, maxDepth: 3))
        #expect(custom.code == .tooDeep)
        #expect(custom.offset == 15)
    }

    @Test func hugeNestingFailsFastWithoutExhaustingTheStack() throws {
        let error = try #require(parseError(String(repeating: "[", count: 1_000_000)))
        #expect(error.code == .tooDeep)
    }

    @Test func messagesSayWhatAndWhere() throws {
        let trailingComma = try #require(parseError(#"{"a": 1, "b": 2,}"#))
        #expect(trailingComma.description.hasPrefix("unexpected character '}' at byte 16"))
        #expect(trailingComma.description.contains("member name"))

        let cutShort = try #require(parseError(#"{"a": "#))
        #expect(cutShort.description == "unexpected end of input at byte 6, expected a value")

        let control = try #require(parseError("\"a\nb\""))
        #expect(control.description.contains("0x0A"))

        let zeros = try #require(parseError("007"))
        #expect(zeros.description == "invalid number at byte 1: leading zeros are not allowed")
    }

    private func check(_ bad: Case, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let error = try #require(parseError(bad.document), sourceLocation: sourceLocation)
        #expect(error.code == bad.code, "\(error)", sourceLocation: sourceLocation)
        #expect(error.offset == bad.offset, "\(error)", sourceLocation: sourceLocation)
    }
}
