import APNsCore
import Testing

@Suite("Parsing valid JSON")
struct JSONParserTests {
    @Test(arguments: [
        ("null", JSONValue.null),
        ("true", .bool(true)),
        ("false", .bool(false)),
        ("0", .number("0")),
        ("-0", .number("-0")),
        ("100", .number("100")),
        ("0.941", .number("0.941")),
        ("0.0", .number("0.0")),
        ("-12.5e-3", .number("-12.5e-3")),
        ("1e3", .number("1e3")),
        ("1E+30", .number("1E+30")),
        ("123456789012345678901234567890", .number("123456789012345678901234567890")),
        (#""""#, .string("")),
        (#""Power Panda""#, .string("Power Panda")),
        ("[]", .array([])),
        ("{}", .object([:])),
    ])
    func scalarsAndEmptyContainers(document: String, expected: JSONValue) throws {
        #expect(try JSONValue.parse(document) == expected)
    }

    @Test func numbersKeepTheirLexeme() throws {
        let value = try json(#"[0.941, 1e3, 100, 1.50, -0.0]"#)
        #expect(value.arrayValue?.compactMap(\.numberLexeme) == ["0.941", "1e3", "100", "1.50", "-0.0"])
        #expect(value.arrayValue?.compactMap(\.doubleValue) == [0.941, 1000, 100, 1.5, 0])
    }

    @Test func nestedDocument() throws {
        let value = try json(
            #"{"a": [1, {"b": null}, [true, false]], "c": {"d": "e"}, "f": []}"#)
        let expected = JSONValue.object([
            "a": .array([.number("1"), .object(["b": .null]), .array([.bool(true), .bool(false)])]),
            "c": .object(["d": .string("e")]),
            "f": .array([]),
        ])
        #expect(value == expected)
        #expect(value["c"]?["d"]?.stringValue == "e")
        #expect(value["a"]?.arrayValue?.count == 3)
        #expect(value["missing"] == nil)
    }

    @Test func objectMembersKeepTheirOrder() throws {
        let object = try #require(try json(#"{"z": 1, "a": 2, "m": 3}"#).objectValue)
        #expect(object.keys == ["z", "a", "m"])
    }

    @Test func whitespaceAroundAndBetweenTokens() throws {
        let value = try json(" \t\r\n{ \"a\" :\n[ 1 ,\t2 ] } \n")
        #expect(value == .object(["a": .array([.number("1"), .number("2")])]))
    }

    @Test func simpleEscapes() throws {
        let value = try json(#""\" \\ \/ \b \f \n \r \t""#)
        #expect(value.stringValue == "\" \\ / \u{08} \u{0C} \n \r \t")
    }

    @Test func unicodeEscapes() throws {
        #expect(try json(#""\u0041\u00e9\u20AC""#).stringValue == "Aé€")
        #expect(try json(#""\u0000""#).stringValue == "\u{0}")
    }

    @Test func surrogatePairsBecomeOneScalar() throws {
        #expect(try json(#""\ud83d\udc3c panda""#).stringValue == "🐼 panda")
        #expect(try json(#""\uD834\uDD1E""#).stringValue == "𝄞")
    }

    @Test func rawUTF8PassesThrough() throws {
        #expect(try json(#""Æsir 日本 🐼""#).stringValue == "Æsir 日本 🐼")
    }

    @Test func escapesAndPlainTextMixInOneString() throws {
        #expect(try json(#""a\nb\u00e9c""#).stringValue == "a\nbéc")
        // The parser reuses its escape buffer; a second escaped string must not see the first.
        #expect(try json(#"["long\tstring", "x\ny"]"#) == .array([.string("long\tstring"), .string("x\ny")]))
    }

    @Test func nestingUpToTheLimitIsAccepted() throws {
        let document = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSONValue.parse(document) }
        let shallow = String(repeating: "{\"a\":", count: 3) + "1" + String(repeating: "}", count: 3)
        #expect(throws: Never.self) { try JSONValue.parse(shallow, maxDepth: 3) }
    }

    @Test func acceptsContiguousAndNonContiguousInput() throws {
        let document = #"{"a":[1,"b"]}"#
        let expected = try json(document)
        let bytes = Array(document.utf8)
        #expect(try JSONValue.parse(bytes) == expected)
        #expect(try JSONValue.parse(bytes[...]) == expected)
        #expect(try bytes.withUnsafeBytes { try JSONValue.parse($0) } == expected)
        // A lazy collection has no contiguous storage and goes through the copying path.
        #expect(try JSONValue.parse(bytes.lazy.map { $0 }) == expected)
    }
}
