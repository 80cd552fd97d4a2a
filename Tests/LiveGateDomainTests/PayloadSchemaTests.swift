import APNsCore
import LiveGateDomain
import Testing

/// Compiling a SCHEMA (SPEC §13): what is accepted, and every refusal with the path it names.
@Suite("A payload schema")
struct PayloadSchemaTests {
    static func json(_ text: String) throws -> JSONValue {
        try JSONValue.parse(text)
    }

    /// The error compiling `text` at `content_state` gives, or nil when it compiles.
    static func error(_ text: String) throws -> PayloadSchemaError? {
        let schema = try json(text)
        do throws(PayloadSchemaError) {
            _ = try PayloadSchema(parsing: schema, at: "content_state")
            return nil
        } catch {
            return error
        }
    }

    @Test func theWholeSubsetCompilesAndKeepsWhatWasGiven() throws {
        let text = #"""
            {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"delivery","title":"Delivery",
             "description":"ContentState","examples":[{}],"default":{},
             "type":"object","additionalProperties":false,"required":["eta","legs"],
             "properties":{
               "eta":{"type":"number","format":"apple-date"},
               "done":{"type":["number","null"],"format":"apple-date"},
               "legs":{"type":"array","items":{"type":"object","properties":{"stop":{"type":"string"}}}},
               "counts":{"type":"object","additionalProperties":{"type":"integer"}},
               "phase":{"type":"string","enum":["a","b"]},
               "note":{"type":["string","null"]},
               "anything":{},
               "flag":{"type":"boolean"},
               "nothing":{"type":"null"}
             }}
            """#
        let schema = try PayloadSchema(parsing: Self.json(text), at: "content_state")
        #expect(schema.json == (try Self.json(text)))
    }

    @Test(arguments: [
        (#"5"#, "content_state", "notASchema", "a schema must be an object, got number"),
        (
            #"{"type":"int"}"#, "content_state.type", "invalidType",
            #"unknown type "int": object, array, string, integer, number, boolean or null"#
        ),
        (
            #"{"type":5}"#, "content_state.type", "invalidType",
            "type must be a type name or a non-empty list of them, got number"
        ),
        (
            #"{"type":[]}"#, "content_state.type", "invalidType",
            "type must be a type name or a non-empty list of them, got an empty array"
        ),
        (#"{"type":["string",1]}"#, "content_state.type[1]", "invalidType", "a type must be a name, got number"),
        (
            #"{"type":["string","text"]}"#, "content_state.type[1]", "invalidType",
            #"unknown type "text": object, array, string, integer, number, boolean or null"#
        ),
        (#"{"properties":[]}"#, "content_state.properties", "invalidProperties", "properties must be an object, got array"),
        (
            #"{"properties":{"home":"integer"}}"#, "content_state.properties.home", "notASchema",
            "a schema must be an object, got string"
        ),
        (
            #"{"properties":{"home":true}}"#, "content_state.properties.home", "notASchema",
            "a schema must be an object, got boolean"
        ),
        (
            #"{"properties":{"home":{},"home":{}}}"#, "content_state.properties.home", "invalidProperties",
            "the property is given twice"
        ),
        (
            #"{"properties":{"home score":{"type":"int"}}}"#, #"content_state.properties["home score"].type"#, "invalidType",
            #"unknown type "int": object, array, string, integer, number, boolean or null"#
        ),
        (
            #"{"required":"home","properties":{"home":{}}}"#, "content_state.required", "invalidRequired",
            "required must be an array of property names, got string"
        ),
        (
            #"{"required":[1],"properties":{"home":{}}}"#, "content_state.required[0]", "invalidRequired",
            "a required entry must be a property name, got number"
        ),
        (
            #"{"required":["home","away"],"properties":{"home":{}}}"#, "content_state.required[1]", "invalidRequired",
            #""away" is not in properties"#
        ),
        (#"{"required":["home"]}"#, "content_state.required[0]", "invalidRequired", #""home" is not in properties"#),
        (
            #"{"type":"array","items":[{"type":"string"}]}"#, "content_state.items", "notASchema",
            "items must be one schema (an object), got array"
        ),
        (
            #"{"type":"array","items":{"type":"strin"}}"#, "content_state.items.type", "invalidType",
            #"unknown type "strin": object, array, string, integer, number, boolean or null"#
        ),
        (#"{"enum":[]}"#, "content_state.enum", "invalidEnum", "enum must be a non-empty array, got an empty array"),
        (#"{"enum":"a"}"#, "content_state.enum", "invalidEnum", "enum must be a non-empty array, got string"),
        (
            #"{"type":"integer","enum":[1,1.5]}"#, "content_state.enum[1]", "invalidEnum",
            "number 1.5 does not fit the schema's own type, integer"
        ),
        (
            #"{"type":"string","enum":["a",null]}"#, "content_state.enum[1]", "invalidEnum",
            "null does not fit the schema's own type, string"
        ),
        (
            #"{"type":"number","format":"apple-date","enum":[1]}"#, "content_state.enum", "invalidEnum",
            #"enum does not go with "apple-date""#
        ),
        (
            #"{"type":"object","additionalProperties":"no"}"#, "content_state.additionalProperties",
            "invalidAdditionalProperties", "additionalProperties must be true, false or a schema, got string"
        ),
        (
            #"{"type":"object","additionalProperties":{"type":"int"}}"#, "content_state.additionalProperties.type",
            "invalidType", #"unknown type "int": object, array, string, integer, number, boolean or null"#
        ),
        (
            #"{"type":"string","format":"date-time"}"#, "content_state.format", "invalidFormat",
            #"unknown format "date-time": the only format is "apple-date""#
        ),
        (#"{"type":"number","format":5}"#, "content_state.format", "invalidFormat", "format must be a string, got number"),
        (
            #"{"type":"string","format":"apple-date"}"#, "content_state.format", "invalidFormat",
            #""apple-date" (a Swift Date) needs type "number", or ["number", "null"]"#
        ),
        (
            #"{"type":"integer","format":"apple-date"}"#, "content_state.format", "invalidFormat",
            #""apple-date" (a Swift Date) needs type "number", or ["number", "null"]"#
        ),
        (
            #"{"format":"apple-date"}"#, "content_state.format", "invalidFormat",
            #""apple-date" (a Swift Date) needs type "number", or ["number", "null"]"#
        ),
        (
            #"{"type":"object","minProperties":1}"#, "content_state.minProperties", "unknownKeyword",
            #"unknown keyword "minProperties""#
        ),
        (
            #"{"properties":{"home":{"type":"integer","minimum":0}}}"#, "content_state.properties.home.minimum",
            "unknownKeyword", #"unknown keyword "minimum""#
        ),
        (#"{"type":"string","type":"integer"}"#, "content_state.type", "repeatedKeyword", #""type" is given twice"#),
        (
            #"{"type":"string","properties":{}}"#, "content_state.properties", "inapplicableKeyword",
            #"properties needs a type that includes "object", not string"#
        ),
        (
            #"{"type":"array","required":[]}"#, "content_state.required", "inapplicableKeyword",
            #"required needs a type that includes "object", not array"#
        ),
        (
            #"{"type":["string","null"],"additionalProperties":false}"#, "content_state.additionalProperties",
            "inapplicableKeyword", #"additionalProperties needs a type that includes "object", not string or null"#
        ),
        (
            #"{"type":"object","items":{}}"#, "content_state.items", "inapplicableKeyword",
            #"items needs a type that includes "array", not object"#
        ),
    ])
    func refusesWithThePathAtFault(schema: String, path: String, code: String, message: String) throws {
        let error = try #require(try Self.error(schema))
        #expect(error.path == path)
        #expect(error.code.description == code)
        #expect(error.message == message)
        #expect(error.description == "\(path): \(message)")
    }

    @Test func nestingIsBoundedAndTheDeepestSchemaNamed() throws {
        func nested(_ depth: Int) -> String {
            depth == 1 ? #"{"type":"integer"}"# : #"{"type":"array","items":"# + nested(depth - 1) + "}"
        }
        #expect(try Self.error(nested(PayloadSchema.maximumDepth)) == nil)
        let error = try #require(try Self.error(nested(PayloadSchema.maximumDepth + 1)))
        #expect(error.code == .tooDeep)
        #expect(error.path == "content_state" + String(repeating: ".items", count: PayloadSchema.maximumDepth))
        #expect(error.message == "schemas may nest at most 32 deep")
    }

    @Test func theFirstErrorInTheSchemasOrderIsTheOneReported() throws {
        let error = try #require(try Self.error(#"{"properties":{"a":{"type":"x"},"b":{"type":"y"}},"required":["c"]}"#))
        #expect(
            error.description
                == #"content_state.properties.a.type: unknown type "x": object, array, string, integer, number, boolean or null"#)
    }

    @Test func aTypeListAndARepeatedRequiredEntryAreFine() throws {
        #expect(try Self.error(#"{"type":["integer","number","null"]}"#) == nil)
        #expect(try Self.error(#"{"type":"object","properties":{"a":{}},"required":["a","a"]}"#) == nil)
        #expect(try Self.error(#"{"enum":[1,"a",null,{"x":[]}]}"#) == nil)
    }
}
