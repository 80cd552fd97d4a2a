import APNsCore
import Testing

/// The bytes as text, for comparing and for failure messages.
func text(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self)
}

/// Parses `document`, failing the test with the parser's message if it is not valid JSON.
func json(_ document: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
    do {
        return try JSONValue.parse(document)
    } catch {
        Issue.record("not valid JSON: \(error)", sourceLocation: sourceLocation)
        throw error
    }
}

/// The error `document` fails with, or nil (recording an issue) if it parses.
func parseError(_ document: String, maxDepth: Int = 64) -> JSONParseError? {
    parseError(Array(document.utf8), maxDepth: maxDepth)
}

func parseError(_ bytes: [UInt8], maxDepth: Int = 64) -> JSONParseError? {
    do {
        let value = try JSONValue.parse(bytes, maxDepth: maxDepth)
        Issue.record("parsed, but should not have: \(value)")
        return nil
    } catch {
        return error
    }
}
