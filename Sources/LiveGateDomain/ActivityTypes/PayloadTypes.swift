/// The JSON types a SCHEMA's `type` names, as a set: a list such as `["string", "null"]` accepts any of them.
struct PayloadTypes: OptionSet, Sendable {
    let rawValue: UInt8

    static let object = PayloadTypes(rawValue: 1 << 0)
    static let array = PayloadTypes(rawValue: 1 << 1)
    static let string = PayloadTypes(rawValue: 1 << 2)
    /// A JSON number a Swift `Int` decodes from.
    static let integer = PayloadTypes(rawValue: 1 << 3)
    /// A JSON number a Swift `Double` decodes from.
    static let number = PayloadTypes(rawValue: 1 << 4)
    static let boolean = PayloadTypes(rawValue: 1 << 5)
    /// `null`: the type is an Optional.
    static let null = PayloadTypes(rawValue: 1 << 6)

    /// Every type, in the order messages list them.
    private static let named: [(name: String, type: PayloadTypes)] = [
        ("object", .object), ("array", .array), ("string", .string), ("integer", .integer),
        ("number", .number), ("boolean", .boolean), ("null", .null),
    ]

    init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The type a name in `type` stands for, or nil for a name outside the subset.
    init?(name: String) {
        guard let entry = Self.named.first(where: { $0.name == name }) else { return nil }
        self = entry.type
    }

    /// `integer`, `string or null`, `integer, number or null`: what a mismatch says was expected.
    var text: String {
        let names = Self.named.filter { contains($0.type) }.map(\.name)
        guard names.count > 1 else { return names.first ?? "nothing" }
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }
}
