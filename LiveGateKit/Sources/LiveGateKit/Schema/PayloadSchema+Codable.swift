// The JSON of a schema, exactly as the gateway reads it: each key only when it is set, `type`
// as one name or, for several, a list of them, `additionalProperties` as a boolean or a schema.

@available(iOS 16.0, macOS 13.0, *)
extension PayloadSchema: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, format, properties, required, items
        case enumValues = "enum"
        case additionalProperties
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type: [JSONType]
        if let one = try? container.decode(JSONType.self, forKey: .type) {
            type = [one]
        } else {
            type = try container.decodeIfPresent([JSONType].self, forKey: .type) ?? []
        }
        self.init(
            type: type,
            format: try container.decodeIfPresent(Format.self, forKey: .format),
            properties: try container.decodeIfPresent([String: PayloadSchema].self, forKey: .properties),
            required: try container.decodeIfPresent([String].self, forKey: .required),
            items: try container.decodeIfPresent(PayloadSchema.self, forKey: .items),
            enumValues: try container.decodeIfPresent([Value].self, forKey: .enumValues),
            additionalProperties: try container.decodeIfPresent(AdditionalProperties.self, forKey: .additionalProperties))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if type.count == 1 {
            try container.encode(type[0], forKey: .type)
        } else if !type.isEmpty {
            try container.encode(type, forKey: .type)
        }
        try container.encodeIfPresent(format, forKey: .format)
        try container.encodeIfPresent(properties, forKey: .properties)
        try container.encodeIfPresent(required, forKey: .required)
        try container.encodeIfPresent(items, forKey: .items)
        try container.encodeIfPresent(enumValues, forKey: .enumValues)
        try container.encodeIfPresent(additionalProperties, forKey: .additionalProperties)
    }
}

@available(iOS 16.0, macOS 13.0, *)
extension PayloadSchema.AdditionalProperties: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let allowed = try? container.decode(Bool.self) {
            self = .allowed(allowed)
        } else {
            self = .schema(try container.decode(PayloadSchema.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .allowed(let allowed): try container.encode(allowed)
        case .schema(let schema): try container.encode(schema)
        }
    }
}
