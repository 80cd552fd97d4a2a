/// One place where a value is not what the app's type decodes: the JSON path, what the type needs there,
/// and what came (`string "1"`, `number 1.5`, `null`, `nothing` for a missing member).
package struct PayloadMismatch: Sendable, Equatable, CustomStringConvertible {
    /// `$.content_state.legs[2].eta`; a key that is not a plain identifier is quoted, `$.content_state["a b"]`.
    package let path: String
    package let expected: String
    package let got: String

    package init(path: String, expected: String, got: String) {
        self.path = path
        self.expected = expected
        self.got = got
    }

    /// `$.content_state.home: expected integer, got string "1"`.
    package var description: String { "\(path): expected \(expected), got \(got)" }
}
