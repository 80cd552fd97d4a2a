/// Why `PayloadSchema.derive(from:)` could not describe a part of an example: where (`path`, such as
/// `stops[0].kind`) and what to change.
@available(iOS 16.0, macOS 13.0, *)
public struct PayloadSchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where in the example, in keys and indexes (`stops[0].kind`); empty for the example itself.
    public var path: String
    /// What cannot be described, and what would make it describable.
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    init(at codingPath: [any CodingKey], _ reason: String) {
        self.init(path: Self.text(of: codingPath), reason: reason)
    }

    public var description: String {
        "cannot describe \(path.isEmpty ? "the example" : path): \(reason)"
    }

    /// `stops[0].kind`: keys joined with dots, indexes in brackets.
    static func text(of codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue, key.stringValue == "Index \(index)" {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text
    }
}
