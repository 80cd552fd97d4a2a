import APNsCore
import Testing

@Suite("JSON objects")
struct JSONObjectTests {
    @Test func repeatedKeysAreKeptAndTheLastOneWins() throws {
        let value = try json(#"{"a": 1, "b": 2, "a": 3}"#)
        let object = try #require(value.objectValue)
        #expect(object.count == 3)
        #expect(object.keys == ["a", "b"])
        #expect(object["a"] == .number("3"))
        #expect(value["a"]?.numberLexeme == "3")
        #expect(text(value.serialized()) == #"{"a":1,"b":2,"a":3}"#)
    }

    @Test func setReplacesInPlaceOrAppends() {
        var object: JSONObject = ["first": .bool(true), "second": .null]
        object.set("first", .string("replaced"))
        object.set("third", .integer(3))
        #expect(text(object.serialized()) == #"{"first":"replaced","second":null,"third":3}"#)
    }

    @Test func setLeavesTheKeyOnceWhenItWasRepeated() {
        var object: JSONObject = ["id": .integer(1), "x": .null, "id": .integer(2)]
        object.set("id", .string("braze"))
        #expect(text(object.serialized()) == #"{"x":null,"id":"braze"}"#)
    }

    @Test func removeDropsEveryMemberWithTheKey() {
        var object: JSONObject = ["a": .integer(1), "b": .integer(2), "a": .integer(3)]
        object.remove("a")
        #expect(object == ["b": .integer(2)])
        #expect(!object.isEmpty)
        object.remove("b")
        #expect(object.isEmpty)
    }

    @Test func initFromPairs() {
        let object = JSONObject([(key: "k", value: .string("v")), ("n", .integer(1))])
        #expect(object.members.map(\.key) == ["k", "n"])
        #expect(object == ["k": .string("v"), "n": .integer(1)])
    }

    @Test func accessorsAnswerOnlyForTheirType() throws {
        let value = try json(#"{"s": "x", "n": 1.5, "b": false, "a": [], "o": {}, "z": null}"#)
        #expect(value["s"]?.stringValue == "x")
        #expect(value["n"]?.stringValue == nil)
        #expect(value["n"]?.doubleValue == 1.5)
        #expect(value["s"]?.doubleValue == nil)
        #expect(value["b"]?.boolValue == false)
        #expect(value["a"]?.arrayValue == [])
        #expect(value["o"]?.objectValue == JSONObject())
        #expect(value["z"]?.isNull == true)
        #expect(value["s"]?.isNull == false)
        #expect(value["s"]?["nested"] == nil)
        let names = ["z", "b", "n", "s", "a", "o"].compactMap { value[$0]?.typeName }
        #expect(names == ["null", "boolean", "number", "string", "array", "object"])
    }

    @Test func equalityIsExactButEquivalenceIsSemantic() throws {
        let written = try json(#"{"a": 1.0, "b": [1e3, {"c": "d", "e": null}]}"#)
        let reordered = try json(#"{"b": [1000, {"e": null, "c": "d"}], "a": 1}"#)
        #expect(written != reordered)
        #expect(written.isEquivalent(to: reordered))
        #expect(reordered.isEquivalent(to: written))
    }

    @Test(arguments: [
        (#"{"a": 1}"#, #"{"a": 2}"#),
        (#"{"a": 1}"#, #"{"a": 1, "b": 1}"#),
        (#"{"a": 1}"#, #"{"a": "1"}"#),
        (#"[1, 2]"#, #"[2, 1]"#),
        (#"[1]"#, #"[1, 1]"#),
        (#""x""#, #""X""#),
        ("true", "1"),
        ("null", "false"),
    ])
    func notEquivalent(left: String, right: String) throws {
        #expect(!(try json(left)).isEquivalent(to: try json(right)))
    }

    @Test func equivalenceReadsRepeatedKeysByTheirLastValue() throws {
        #expect(try json(#"{"a": 1, "a": 2}"#).isEquivalent(to: try json(#"{"a": 2}"#)))
    }
}
