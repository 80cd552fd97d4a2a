import APNsCore
import LiveGateDomain
import Testing

/// Checking values against a compiled schema: each kind of mismatch with its exact message and path.
@Suite("A payload check")
struct PayloadCheckTests {
    static let schema = try! PayloadSchema(
        parsing: JSONValue.parse(
            #"""
            {"type":"object","required":["home","phase","score","legs"],
             "properties":{
               "home":{"type":"integer"},
               "away":{"type":"integer"},
               "ratio":{"type":"number"},
               "name":{"type":"string"},
               "live":{"type":"boolean"},
               "phase":{"type":"string","enum":["first","second"]},
               "note":{"type":["string","null"]},
               "score":{"type":"object","required":["home"],"properties":{"home":{"type":"integer"}},"additionalProperties":false},
               "legs":{"type":"array","items":{"type":"object","required":["eta"],
                       "properties":{"eta":{"type":"number","format":"apple-date"}}}},
               "counts":{"type":"object","additionalProperties":{"type":"integer"}},
               "odd key":{"type":"string"},
               "anything":{}
             }}
            """#),
        at: "content_state")

    static let valid = #"{"home":1,"phase":"first","score":{"home":2},"legs":[]}"#

    /// `valid` with `members` (JSON text) added, or a member removed where the text is nil.
    static func state(_ members: KeyValuePairs<String, String?> = [:]) throws -> JSONValue {
        guard case .object(var object) = try JSONValue.parse(valid) else { throw CheckError() }
        for (key, text) in members {
            if let text { object.set(key, try JSONValue.parse(text)) } else { object.remove(key) }
        }
        return .object(object)
    }

    struct CheckError: Error {}

    static func mismatches(_ value: JSONValue, _ schema: PayloadSchema = schema) -> [String] {
        schema.check(value, at: "$.content_state").mismatches.map(\.description)
    }

    @Test func aValueThatDecodesPassesUnchanged() throws {
        let value = try Self.state([
            "away": "null", "ratio": "2", "name": #""Home""#, "live": "true", "note": "null", "legs": #"[{"eta":1.5}]"#,
            "counts": #"{"a":1,"b":-2}"#, "odd key": #""x""#, "anything": #"[{"deep":null}]"#, "unknown": "[1,2]",
        ])
        let check = Self.schema.check(value, at: "$.content_state")
        #expect(check.mismatches.isEmpty)
        #expect(check.isDecodable)
        #expect(check.value == value)
    }

    @Test(
        arguments: [
            (["home": #""1""#], [#"$.content_state.home: expected integer, got string "1""#]),
            (["home": "1.5"], ["$.content_state.home: expected integer, got number 1.5"]),
            (["home": "null"], ["$.content_state.home: expected integer, got null"]),
            (["home": nil], ["$.content_state.home: expected integer, got nothing"]),
            (["home": "true"], ["$.content_state.home: expected integer, got boolean true"]),
            (["home": "{}"], ["$.content_state.home: expected integer, got object"]),
            (["home": "[]"], ["$.content_state.home: expected integer, got array"]),
            (["away": #""2""#], [#"$.content_state.away: expected integer, got string "2""#]),
            (["ratio": #""0.5""#], [#"$.content_state.ratio: expected number, got string "0.5""#]),
            (["ratio": "1e400"], ["$.content_state.ratio: expected a number a Double can hold, got number 1e400"]),
            (["name": "5"], ["$.content_state.name: expected string, got number 5"]),
            (["live": "1"], ["$.content_state.live: expected boolean, got number 1"]),
            (["live": #""true""#], [#"$.content_state.live: expected boolean, got string "true""#]),
            (["phase": #""third""#], [#"$.content_state.phase: expected one of "first", "second", got string "third""#]),
            (["phase": "null"], [#"$.content_state.phase: expected one of "first", "second", got null"#]),
            (["phase": "1"], [#"$.content_state.phase: expected one of "first", "second", got number 1"#]),
            (["note": "5"], ["$.content_state.note: expected string or null, got number 5"]),
            (
                ["score": #"{"home":1,"extra":2}"#],
                ["$.content_state.score.extra: expected nothing (the type has no such property), got number 2"]
            ),
            (["score": "{}"], ["$.content_state.score.home: expected integer, got nothing"]),
            (["score": "null"], ["$.content_state.score: expected object, got null"]),
            (
                ["legs": #"[{"eta":1},{"eta":2},{"eta":"soon"}]"#],
                [
                    #"$.content_state.legs[2].eta: expected an ISO 8601 date-time (2026-01-01T10:00:00Z) or seconds since 2001-01-01, got string "soon""#
                ]
            ),
            (
                ["legs": #"[{},null,{"eta":null}]"#],
                [
                    "$.content_state.legs[0].eta: expected a Swift Date (seconds since 2001-01-01), got nothing",
                    "$.content_state.legs[1]: expected object, got null",
                    "$.content_state.legs[2].eta: expected a Swift Date (seconds since 2001-01-01), got null",
                ]
            ),
            (["legs": "{}"], ["$.content_state.legs: expected array, got object"]),
            (
                ["counts": #"{"a":1,"b":"2","c":null,"d":2.5}"#],
                [
                    #"$.content_state.counts.b: expected integer, got string "2""#,
                    "$.content_state.counts.c: expected integer, got null",
                    "$.content_state.counts.d: expected integer, got number 2.5",
                ]
            ),
            (["odd key": "1"], [#"$.content_state["odd key"]: expected string, got number 1"#]),
            (
                ["home": #""1""#, "phase": nil, "legs": "[5]", "score": nil, "live": "0"],
                [
                    #"$.content_state.home: expected integer, got string "1""#,
                    "$.content_state.legs[0]: expected object, got number 5",
                    "$.content_state.live: expected boolean, got number 0",
                    #"$.content_state.phase: expected one of "first", "second", got nothing"#,
                    "$.content_state.score: expected object, got nothing",
                ]
            ),
        ] as [(KeyValuePairs<String, String?>, [String])])
    func everyMismatchIsNamedWithItsPath(members: KeyValuePairs<String, String?>, expected: [String]) throws {
        #expect(Self.mismatches(try Self.state(members)) == expected)
    }

    @Test func aValueOfTheWrongKindAtTheTopIsOneMismatch() throws {
        #expect(Self.mismatches(.array([])) == ["$.content_state: expected object, got array"])
        #expect(Self.mismatches(.null) == ["$.content_state: expected object, got null"])
    }

    @Test func theMismatchKeepsItsParts() throws {
        let mismatch = try #require(Self.schema.check(try Self.state(["home": "1.5"]), at: "$.content_state").mismatches.first)
        #expect(mismatch == PayloadMismatch(path: "$.content_state.home", expected: "integer", got: "number 1.5"))
    }

    @Test func longTextIsCut() throws {
        let name = String(repeating: "a", count: 100)
        let number = "1" + String(repeating: "0", count: 60) + ".5"
        #expect(
            Self.mismatches(try Self.state(["home": "\"\(name)\"", "name": number])) == [
                "$.content_state.home: expected integer, got string \"\(String(repeating: "a", count: 40))…\"",
                "$.content_state.name: expected string, got number \(number.prefix(40))…",
            ])
    }

    @Test func mismatchesStopAtTheLimit() throws {
        let counts = (0..<80).map { #""k\#($0)":"x""# }.joined(separator: ",")
        let check = Self.schema.check(try Self.state(["counts": "{\(counts)}"]), at: "$.content_state")
        #expect(check.mismatches.count == PayloadSchema.mismatchLimit)
        #expect(check.mismatches.last?.path == "$.content_state.counts.k49")
        #expect(check.found == 80, "every mismatch is counted, also those past the list")
    }

    @Test func aRepeatedKeyIsCheckedAtEveryOccurrence() throws {
        // Foundation's JSONDecoder reads the first; older ones read the last.
        let first = try JSONValue.parse(#"{"home":"1","phase":"first","score":{"home":2},"legs":[],"home":1}"#)
        let last = try JSONValue.parse(#"{"home":1,"phase":"first","score":{"home":2},"legs":[],"home":"1"}"#)
        for value in [first, last] {
            #expect(Self.mismatches(value) == [#"$.content_state.home: expected integer, got string "1""#])
        }
        let twice = try JSONValue.parse(#"{"home":1,"phase":"first","score":{"home":2},"home":2}"#)
        #expect(Self.mismatches(twice) == ["$.content_state.legs: expected array, got nothing"], "a repeat is no other member")
    }

    @Test func typeListsAcceptAnyOfTheirTypes() throws {
        let schema = try PayloadSchema(parsing: JSONValue.parse(#"{"type":["integer","string","null"]}"#), at: "s")
        for accepted in ["1", "1.0", #""x""#, "null"] {
            #expect(Self.mismatches(try JSONValue.parse(accepted), schema).isEmpty, "\(accepted)")
        }
        #expect(Self.mismatches(.number("1.5"), schema) == ["$.content_state: expected string, integer or null, got number 1.5"])
        #expect(Self.mismatches(.bool(false), schema) == ["$.content_state: expected string, integer or null, got boolean false"])
        let numbers = try PayloadSchema(parsing: JSONValue.parse(#"{"type":["integer","number"]}"#), at: "s")
        #expect(Self.mismatches(.number("1e-400"), numbers).isEmpty, "an Int decodes it (as 0), a Double does not")
        #expect(Self.mismatches(.number("1e400"), numbers) == ["$.content_state: expected a number a Double can hold, got number 1e400"])
    }

    @Test func aRequiredMemberMayStillBeNull() throws {
        // `try container.decode(String?.self, forKey: .note)`: the key must be there, null is nil.
        let schema = try PayloadSchema(
            parsing: JSONValue.parse(#"{"type":"object","required":["note"],"properties":{"note":{"type":["string","null"]}}}"#),
            at: "s")
        #expect(Self.mismatches(try JSONValue.parse(#"{"note":null}"#), schema).isEmpty)
        #expect(Self.mismatches(.object([:]), schema) == ["$.content_state.note: expected string or null, got nothing"])
    }

    @Test func enumValuesCompareByMeaning() throws {
        let schema = try PayloadSchema(parsing: JSONValue.parse(#"{"type":"integer","enum":[1,2]}"#), at: "s")
        #expect(Self.mismatches(.number("1.0"), schema).isEmpty, "an Int raw value decodes from 1.0")
        #expect(Self.mismatches(.number("1e0"), schema).isEmpty)
        #expect(Self.mismatches(.number("3"), schema) == ["$.content_state: expected one of 1, 2, got number 3"])
        let optional = try PayloadSchema(parsing: JSONValue.parse(#"{"type":["string","null"],"enum":["a"]}"#), at: "s")
        #expect(Self.mismatches(.null, optional).isEmpty, "an Optional enum decodes null as nil")
        #expect(Self.mismatches(.string("b"), optional) == [#"$.content_state: expected one of "a" or null, got string "b""#])
        let untyped = try PayloadSchema(parsing: JSONValue.parse(#"{"enum":["a",{"x":1}]}"#), at: "s")
        #expect(Self.mismatches(try JSONValue.parse(#"{"x":1.0}"#), untyped).isEmpty)
        #expect(Self.mismatches(.null, untyped) == [#"$.content_state: expected one of "a", {"x":1}, got null"#])
        let many = try PayloadSchema(parsing: JSONValue.parse("{\"enum\":[\((1...12).map(String.init).joined(separator: ","))]}"), at: "s")
        #expect(
            Self.mismatches(.number("13"), many) == ["$.content_state: expected one of 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, …, got number 13"])
    }

    @Test func withoutATypeAnythingGoesButTheKeywordsForItsKind() throws {
        let schema = try PayloadSchema(
            parsing: JSONValue.parse(#"{"properties":{"a":{"type":"integer"}},"items":{"type":"string"}}"#), at: "s")
        for accepted in ["null", "1", #""x""#, #"{"a":1}"#, #"["x"]"#] {
            #expect(Self.mismatches(try JSONValue.parse(accepted), schema).isEmpty, "\(accepted)")
        }
        #expect(Self.mismatches(try JSONValue.parse(#"{"a":"1"}"#), schema) == [#"$.content_state.a: expected integer, got string "1""#])
        #expect(Self.mismatches(try JSONValue.parse("[1]"), schema) == ["$.content_state[0]: expected string, got number 1"])
    }

    @Test func manyRequiredMembersAreAllAccountedFor() throws {
        // Past 64 required members the check no longer keeps them in one word.
        let names = (0..<70).map { "m\($0)" }
        let properties = names.map { #""\#($0)":{"type":"integer"}"# }.joined(separator: ",")
        let required = names.map { #""\#($0)""# }.joined(separator: ",")
        let schema = try PayloadSchema(
            parsing: JSONValue.parse(#"{"type":"object","properties":{\#(properties)},"required":[\#(required)]}"#), at: "s")
        var object = JSONObject(names.map { (key: $0, value: JSONValue.number("1")) })
        #expect(Self.mismatches(.object(object), schema).isEmpty)
        object.remove("m3")
        object.remove("m66")
        object.set("m0", .number("1"))
        #expect(
            Self.mismatches(.object(object), schema) == [
                "$.content_state.m3: expected integer, got nothing", "$.content_state.m66: expected integer, got nothing",
            ])
    }

    @Test func membersInAnyOrderFindTheirOwnObjectsProperties() throws {
        // Members are matched in the schema's order first; out of order, or a key a nested object shares
        // with its parent, must still find the property of the object it is in.
        let inOrder = #"{"home":1,"phase":"first","score":{"home":2},"legs":[{"eta":3}]}"#
        let reversed = #"{"legs":[{"eta":3}],"score":{"home":2},"phase":"first","home":1}"#
        let shuffled = #"{"phase":"first","unknown":1,"home":1,"legs":[],"score":{"home":2},"ratio":2.5,"away":3}"#
        for text in [inOrder, reversed, shuffled] {
            #expect(Self.mismatches(try JSONValue.parse(text)).isEmpty, "\(text)")
        }
        let wrongInside = try JSONValue.parse(#"{"score":{"away":1,"home":"2"},"home":"1","phase":"first","legs":[]}"#)
        #expect(
            Self.mismatches(wrongInside) == [
                "$.content_state.score.away: expected nothing (the type has no such property), got number 1",
                #"$.content_state.score.home: expected integer, got string "2""#,
                #"$.content_state.home: expected integer, got string "1""#,
            ])
        let missingInside = try JSONValue.parse(#"{"score":{},"phase":"first","home":1,"legs":[{}]}"#)
        #expect(
            Self.mismatches(missingInside) == [
                "$.content_state.score.home: expected integer, got nothing",
                "$.content_state.legs[0].eta: expected a Swift Date (seconds since 2001-01-01), got nothing",
            ])
    }
}
