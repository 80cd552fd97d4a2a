import APNsCore

/// One compiled SCHEMA: its keywords read once into what a check needs (property lookups by dictionary,
/// the texts mismatches print), immutable so one schema serves every check on every thread.
final class PayloadSchemaNode: Sendable {
    struct Property: Sendable {
        let schema: PayloadSchemaNode
        /// Its place in `requiredKeys`, or nil for a member the type decodes as an Optional.
        let requiredIndex: Int?
        /// Its place in `orderedProperties`.
        let position: Int
    }

    struct NamedProperty: Sendable {
        let key: String
        let property: Property
    }

    enum AdditionalProperties: Sendable {
        /// Members the type does not name are ignored, as Codable ignores them.
        case ignored
        case refused
        /// The type is a `[String: T]`: every member not in `properties` must decode as T.
        case schema(PayloadSchemaNode)
    }

    /// nil when `type` is absent: any value.
    let types: PayloadTypes?
    let properties: [String: Property]
    /// The properties in the schema's order, which is most often the order an encoder writes them: a check
    /// tries the next one before hashing the key.
    let orderedProperties: [NamedProperty]
    let requiredKeys: [String]
    let additionalProperties: AdditionalProperties
    let items: PayloadSchemaNode?
    /// The values `enum` allows, or nil.
    let allowed: [JSONValue]?
    /// `"format": "apple-date"`: a Swift `Date`.
    let isAppleDate: Bool
    /// What a mismatch says this schema expected: `integer`, `string or null`, `one of "a", "b"`.
    let expected: String

    init(
        types: PayloadTypes?, properties: [String: Property] = [:], requiredKeys: [String] = [],
        additionalProperties: AdditionalProperties = .ignored, items: PayloadSchemaNode? = nil, allowed: [JSONValue]? = nil,
        isAppleDate: Bool = false
    ) {
        self.types = types
        self.properties = properties
        self.orderedProperties = properties.map { NamedProperty(key: $0.key, property: $0.value) }
            .sorted { $0.property.position < $1.property.position }
        self.requiredKeys = requiredKeys
        self.additionalProperties = additionalProperties
        self.items = items
        self.allowed = allowed
        self.isAppleDate = isAppleDate
        self.expected = Self.expected(types: types, allowed: allowed, isAppleDate: isAppleDate)
    }

    private static func expected(types: PayloadTypes?, allowed: [JSONValue]?, isAppleDate: Bool) -> String {
        let orNull = types?.contains(.null) == true ? " or null" : ""
        if isAppleDate { return AppleDate.expected + orNull }
        if let allowed {
            let listed = allowed.prefix(10).map(PayloadValueText.json).joined(separator: ", ")
            return "one of " + listed + (allowed.count > 10 ? ", …" : "") + orNull
        }
        return types?.text ?? "any value"
    }

    /// A copy that also requires one of `allowed`: `enum` is checked against the schema without it first.
    func allowing(_ allowed: [JSONValue]) -> PayloadSchemaNode {
        PayloadSchemaNode(
            types: types, properties: properties, requiredKeys: requiredKeys, additionalProperties: additionalProperties,
            items: items, allowed: allowed, isAppleDate: isAppleDate)
    }
}
