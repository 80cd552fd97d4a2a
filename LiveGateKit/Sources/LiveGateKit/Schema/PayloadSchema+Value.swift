@available(iOS 16.0, macOS 13.0, *)
extension PayloadSchema {
    /// A JSON value a schema's `enum` lists: what a raw value, or any value encoded as one JSON scalar,
    /// becomes.
    public enum Value: Sendable, Hashable {
        case string(String)
        case integer(Int64)
        case number(Double)
        case boolean(Bool)
        case null

        /// The JSON type of the value.
        public var type: JSONType {
            switch self {
            case .string: .string
            case .integer: .integer
            case .number: .number
            case .boolean: .boolean
            case .null: .null
            }
        }
    }
}

@available(iOS 16.0, macOS 13.0, *)
extension PayloadSchema.Value: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .boolean(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .boolean(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}
