import APNsCore

extension PayloadSchemaNode {
    /// The keywords of the subset (SPEC §13).
    private static let keywords: Set<String> = ["type", "properties", "required", "items", "enum", "additionalProperties", "format"]
    /// Keywords that describe but do not constrain: accepted and ignored.
    private static let annotations: Set<String> = ["$schema", "$id", "title", "description", "examples", "default"]

    /// Compiles the schema `json`, found at `path`, `depth` schemas deep (the whole schema is 1).
    /// Anything the gateway would not enforce exactly is refused rather than ignored: a schema that seems
    /// to check more than it does would let undecodable updates through.
    static func parse(_ json: JSONValue, at path: String, depth: Int) throws(PayloadSchemaError) -> PayloadSchemaNode {
        guard case .object(let schema) = json else {
            throw PayloadSchemaError(.notASchema, at: path, "a schema must be an object, got \(json.typeName)")
        }
        guard depth <= PayloadSchema.maximumDepth else {
            throw PayloadSchemaError(.tooDeep, at: path, "schemas may nest at most \(PayloadSchema.maximumDepth) deep")
        }
        var seen = Set<String>()
        for member in schema.members {
            let keywordPath = PayloadPath.member(member.key, of: path)
            guard keywords.contains(member.key) || annotations.contains(member.key) else {
                throw PayloadSchemaError(.unknownKeyword, at: keywordPath, "unknown keyword \(PayloadValueText.quoted(member.key))")
            }
            guard seen.insert(member.key).inserted else {
                throw PayloadSchemaError(.repeatedKeyword, at: keywordPath, "\(PayloadValueText.quoted(member.key)) is given twice")
            }
        }

        let types = try parseType(schema["type"], at: path + ".type")
        let isAppleDate = try parseFormat(schema["format"], types: types, at: path + ".format")
        var properties = try parseProperties(schema["properties"], types: types, at: path + ".properties", depth: depth)
        let requiredKeys = try parseRequired(schema["required"], types: types, properties: &properties, at: path + ".required")
        let additionalProperties = try parseAdditionalProperties(
            schema["additionalProperties"], types: types, at: path + ".additionalProperties", depth: depth)
        let items = try parseItems(schema["items"], types: types, at: path + ".items", depth: depth)
        let node = PayloadSchemaNode(
            types: types, properties: properties, requiredKeys: requiredKeys, additionalProperties: additionalProperties,
            items: items, isAppleDate: isAppleDate)
        guard let allowed = schema["enum"] else { return node }
        return try node.parseEnum(allowed, at: path + ".enum")
    }

    private static func parseType(_ json: JSONValue?, at path: String) throws(PayloadSchemaError) -> PayloadTypes? {
        switch json {
        case nil:
            return nil
        case .string(let name):
            guard let type = PayloadTypes(name: name) else { throw unknownType(name, at: path) }
            return type
        case .array(let names) where !names.isEmpty:
            var types: PayloadTypes = []
            for (index, entry) in names.enumerated() {
                let entryPath = PayloadPath.element(index, of: path)
                guard case .string(let name) = entry else {
                    throw PayloadSchemaError(.invalidType, at: entryPath, "a type must be a name, got \(entry.typeName)")
                }
                guard let type = PayloadTypes(name: name) else { throw unknownType(name, at: entryPath) }
                types.insert(type)
            }
            return types
        case .some(let other):
            throw PayloadSchemaError(
                .invalidType, at: path, "type must be a type name or a non-empty list of them, got \(describe(other))")
        }
    }

    private static func unknownType(_ name: String, at path: String) -> PayloadSchemaError {
        PayloadSchemaError(
            .invalidType, at: path,
            "unknown type \(PayloadValueText.quoted(name)): object, array, string, integer, number, boolean or null")
    }

    private static func parseFormat(_ json: JSONValue?, types: PayloadTypes?, at path: String) throws(PayloadSchemaError) -> Bool {
        guard let json else { return false }
        guard case .string(let format) = json else {
            throw PayloadSchemaError(.invalidFormat, at: path, "format must be a string, got \(json.typeName)")
        }
        guard format == "apple-date" else {
            throw PayloadSchemaError(
                .invalidFormat, at: path, "unknown format \(PayloadValueText.quoted(format)): the only format is \"apple-date\"")
        }
        guard let types, types.subtracting(.null) == .number else {
            throw PayloadSchemaError(
                .invalidFormat, at: path, "\"apple-date\" (a Swift Date) needs type \"number\", or [\"number\", \"null\"]")
        }
        return true
    }

    private static func parseProperties(
        _ json: JSONValue?, types: PayloadTypes?, at path: String, depth: Int
    ) throws(PayloadSchemaError) -> [String: Property] {
        guard let json else { return [:] }
        guard case .object(let members) = json else {
            throw PayloadSchemaError(.invalidProperties, at: path, "properties must be an object, got \(json.typeName)")
        }
        try applies("properties", to: types, needing: .object, at: path)
        var properties: [String: Property] = [:]
        properties.reserveCapacity(members.count)
        for member in members.members {
            let propertyPath = PayloadPath.member(member.key, of: path)
            guard properties[member.key] == nil else {
                throw PayloadSchemaError(.invalidProperties, at: propertyPath, "the property is given twice")
            }
            let schema = try parse(member.value, at: propertyPath, depth: depth + 1)
            properties[member.key] = Property(schema: schema, requiredIndex: nil, position: properties.count)
        }
        return properties
    }

    /// The required keys, in order, each once; marks them in `properties`.
    private static func parseRequired(
        _ json: JSONValue?, types: PayloadTypes?, properties: inout [String: Property], at path: String
    ) throws(PayloadSchemaError) -> [String] {
        guard let json else { return [] }
        guard case .array(let entries) = json else {
            throw PayloadSchemaError(.invalidRequired, at: path, "required must be an array of property names, got \(json.typeName)")
        }
        try applies("required", to: types, needing: .object, at: path)
        var keys: [String] = []
        for (index, entry) in entries.enumerated() {
            let entryPath = PayloadPath.element(index, of: path)
            guard case .string(let key) = entry else {
                throw PayloadSchemaError(.invalidRequired, at: entryPath, "a required entry must be a property name, got \(entry.typeName)")
            }
            guard let property = properties[key] else {
                throw PayloadSchemaError(.invalidRequired, at: entryPath, "\(PayloadValueText.quoted(key)) is not in properties")
            }
            guard property.requiredIndex == nil else { continue }
            properties[key] = Property(schema: property.schema, requiredIndex: keys.count, position: property.position)
            keys.append(key)
        }
        return keys
    }

    private static func parseAdditionalProperties(
        _ json: JSONValue?, types: PayloadTypes?, at path: String, depth: Int
    ) throws(PayloadSchemaError) -> AdditionalProperties {
        guard let json else { return .ignored }
        try applies("additionalProperties", to: types, needing: .object, at: path)
        switch json {
        case .bool(true): return .ignored
        case .bool(false): return .refused
        case .object: return .schema(try parse(json, at: path, depth: depth + 1))
        default:
            throw PayloadSchemaError(
                .invalidAdditionalProperties, at: path,
                "additionalProperties must be true, false or a schema, got \(json.typeName)")
        }
    }

    private static func parseItems(
        _ json: JSONValue?, types: PayloadTypes?, at path: String, depth: Int
    ) throws(PayloadSchemaError) -> PayloadSchemaNode? {
        guard let json else { return nil }
        guard case .object = json else {
            throw PayloadSchemaError(.notASchema, at: path, "items must be one schema (an object), got \(json.typeName)")
        }
        try applies("items", to: types, needing: .array, at: path)
        return try parse(json, at: path, depth: depth + 1)
    }

    /// This schema with `enum`, whose values must each pass the schema without it: a value the type
    /// refuses could never be sent.
    private func parseEnum(_ json: JSONValue, at path: String) throws(PayloadSchemaError) -> PayloadSchemaNode {
        guard case .array(let values) = json, !values.isEmpty else {
            throw PayloadSchemaError(.invalidEnum, at: path, "enum must be a non-empty array, got \(Self.describe(json))")
        }
        guard !isAppleDate else {
            throw PayloadSchemaError(.invalidEnum, at: path, "enum does not go with \"apple-date\"")
        }
        let compiled = FlatPayloadSchema(self)
        for (index, value) in values.enumerated() {
            guard compiled.check(value, at: "").mismatches.isEmpty else {
                throw PayloadSchemaError(
                    .invalidEnum, at: PayloadPath.element(index, of: path),
                    "\(PayloadValueText.describe(value)) does not fit the schema's own type, \(expected)")
            }
        }
        return allowing(values)
    }

    /// Refuses a keyword that can never apply to the types given (when `type` is absent it applies to
    /// values of its kind).
    private static func applies(
        _ keyword: String, to types: PayloadTypes?, needing type: PayloadTypes, at path: String
    ) throws(PayloadSchemaError) {
        guard let types, !types.contains(type) else { return }
        throw PayloadSchemaError(
            .inapplicableKeyword, at: path, "\(keyword) needs a type that includes \"\(type.text)\", not \(types.text)")
    }

    /// `array` or `empty array`, to tell which of a keyword's rules was broken.
    private static func describe(_ json: JSONValue) -> String {
        if case .array(let elements) = json, elements.isEmpty { return "an empty array" }
        return json.typeName
    }
}
