import APNsCore
import Testing

@Suite("Serializing JSON")
struct JSONSerializationTests {
    @Test func compactWithMembersInStoredOrder() throws {
        let value = try json(#" { "b" : [ 1 , 2.50 , 1e3 ] , "a" : { "x" : null , "y" : true } , "c" : "" } "#)
        #expect(text(value.serialized()) == #"{"b":[1,2.50,1e3],"a":{"x":null,"y":true},"c":""}"#)
    }

    @Test func escapesOnlyWhatRFC8259Requires() {
        let value = JSONValue.string("quote \" backslash \\ slash / é 🐼 \n\r\t\u{08}\u{0C}\u{0}\u{1F}\u{7F}")
        #expect(
            text(value.serialized())
                == #""quote \" backslash \\ slash / é 🐼 \n\r\t\b\f\u0000\u001f"# + "\u{7F}\"")
    }

    @Test func keysAreEscapedToo() {
        let object: JSONObject = ["a\"b": .null]
        #expect(text(object.serialized()) == #"{"a\"b":null}"#)
    }

    @Test func serializeIntoAppends() {
        var bytes = Array("prefix:".utf8)
        JSONValue.array([.bool(false), .integer(-42)]).serialize(into: &bytes)
        #expect(text(bytes) == "prefix:[false,-42]")
    }

    @Test func descriptionIsTheCompactText() {
        #expect(JSONValue.object(["a": .array([.string("b")])]).description == #"{"a":["b"]}"#)
    }

    @Test(arguments: [
        #"{"timestamp":1685952000,"content-state":{"currentHealthLevel":0.941,"eventDescription":"Power Panda found a sword!"}}"#,
        #"[null,true,false,0,-0.0,1E-7,"",{},[],[[{}]]]"#,
        #"{"dup":1,"dup":2,"x":{"dup":[3]}}"#,
        #""\"\\\/\b\f\n\r\t\u0001\u00e9\ud83d\udc3c""#,
        #"{"emoji":"🐼","accents":"Æsir","cjk":"日本"}"#,
    ])
    func roundTrip(document: String) throws {
        let value = try json(document)
        let again = try JSONValue.parse(value.serialized())
        #expect(again == value)
        #expect(again.serialized() == value.serialized())
    }

    @Test func builtValuesRoundTrip() throws {
        var object = JSONObject()
        object.set("text", .string("line\nbreak \u{1} \"quoted\""))
        object.set("numbers", .array([.integer(0), .integer(Int64.min), .number("6.02e23")]))
        object.set("nested", .object(["empty": .object([:])]))
        let value = JSONValue.object(object)
        #expect(try JSONValue.parse(value.serialized()) == value)
    }
}
