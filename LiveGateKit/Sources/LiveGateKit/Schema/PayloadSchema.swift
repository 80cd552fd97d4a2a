/// The shape of a Live Activity's `ContentState` or attributes, in the JSON Schema subset the gateway
/// checks payloads against (`PUT /live_activity/types/{attributes_type}`): `type`, `properties`,
/// `required`, `items`, `enum`, `additionalProperties`, and `"format": "apple-date"` on a number for a
/// Swift `Date`. A property absent from `required` is a Swift Optional. A schema with nothing set, `{}`,
/// accepts any value.
///
/// Usually derived from an example value of the app's own type (`derive(from:)`), so what the gateway
/// checks is what the app decodes. Encodes to exactly that JSON; with `JSONEncoder`'s `.sortedKeys` the
/// text is the same every time.
@available(iOS 16.0, macOS 13.0, *)
public struct PayloadSchema: Sendable, Hashable {
    /// The JSON types a value may have; empty means any.
    public var type: [JSONType]
    /// What a number stands for: `.appleDate` for a Swift `Date`.
    public var format: Format?
    /// An object's known properties.
    public var properties: [String: PayloadSchema]?
    /// The properties an object must have: those that are not Swift Optionals.
    public var required: [String]?
    /// The values a value may take, such as the raw values of a `CaseIterable` enum.
    public var enumValues: [Value]?
    /// What an object's other properties may be: a dictionary's values.
    public var additionalProperties: AdditionalProperties?
    /// An array's elements; kept in an array of at most one, as a struct cannot hold itself.
    private var itemsStorage: [PayloadSchema]

    /// An array's elements.
    public var items: PayloadSchema? {
        get { itemsStorage.first }
        set { itemsStorage = newValue.map { [$0] } ?? [] }
    }

    public init(
        type: [JSONType] = [], format: Format? = nil, properties: [String: PayloadSchema]? = nil, required: [String]? = nil,
        items: PayloadSchema? = nil, enumValues: [Value]? = nil, additionalProperties: AdditionalProperties? = nil
    ) {
        self.type = type
        self.format = format
        self.properties = properties
        self.required = required
        self.itemsStorage = items.map { [$0] } ?? []
        self.enumValues = enumValues
        self.additionalProperties = additionalProperties
    }

    /// A JSON type, as JSON Schema names it.
    public enum JSONType: String, Sendable, Hashable, Codable, CaseIterable {
        case object, array, string, integer, number, boolean, null
    }

    /// What a value stands for beyond its JSON type. Open: a newer gateway may know more formats.
    public struct Format: RawRepresentable, Sendable, Hashable, Codable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A Swift `Date` as ActivityKit decodes it (`JSONDecoder`'s defaults): a number of seconds since
        /// 2001-01-01T00:00:00Z, Apple's reference date, not Unix time.
        public static let appleDate = Format(rawValue: "apple-date")
    }

    /// What an object's properties beyond `properties` may be.
    public indirect enum AdditionalProperties: Sendable, Hashable {
        /// Any (`true`) or none (`false`).
        case allowed(Bool)
        /// Each must match this schema (a dictionary's values).
        case schema(PayloadSchema)
    }
}

@available(iOS 16.0, macOS 13.0, *)
extension PayloadSchema {
    /// `{}`: any value. What a nil Optional of a type that cannot be described without a value gets.
    public static let any = PayloadSchema()
    public static let string = PayloadSchema(type: [.string])
    public static let integer = PayloadSchema(type: [.integer])
    public static let number = PayloadSchema(type: [.number])
    public static let boolean = PayloadSchema(type: [.boolean])
    public static let null = PayloadSchema(type: [.null])
    /// A Swift `Date`: `{"type":"number","format":"apple-date"}`.
    public static let appleDate = PayloadSchema(type: [.number], format: .appleDate)

    /// An array whose elements match `items`.
    public static func array(of items: PayloadSchema) -> PayloadSchema {
        PayloadSchema(type: [.array], items: items)
    }

    /// An object (a struct) with these properties; `required` lists those that are not Optionals.
    public static func object(properties: [String: PayloadSchema], required: [String] = []) -> PayloadSchema {
        PayloadSchema(type: [.object], properties: properties, required: required.isEmpty ? nil : required.sorted())
    }

    /// An object with any keys whose values match `values` (a Swift dictionary keyed by strings).
    public static func dictionary(of values: PayloadSchema) -> PayloadSchema {
        PayloadSchema(type: [.object], additionalProperties: .schema(values))
    }

    /// One of these values (`enum`), whose JSON types make `type`.
    public static func enumeration(_ values: [Value]) -> PayloadSchema {
        var types: [JSONType] = []
        for value in values where !types.contains(value.type) { types.append(value.type) }
        return PayloadSchema(type: types, enumValues: values)
    }

    /// The same schema that also takes `null`: a Swift Optional met as a value (an element of
    /// `[String?]`). `{}` already takes it.
    public func orNull() -> PayloadSchema {
        guard !type.isEmpty, !type.contains(.null) else { return self }
        var nullable = self
        nullable.type.append(.null)
        if let values = enumValues, !values.contains(.null) { nullable.enumValues = values + [.null] }
        return nullable
    }
}
