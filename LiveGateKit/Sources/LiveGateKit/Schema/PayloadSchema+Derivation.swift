import Foundation

@available(iOS 16.0, macOS 13.0, *)
extension PayloadSchema {
    /// The schema of what the app decodes, derived from an example value of its own type (a
    /// `ContentState`, or the attributes): the example is encoded through a recording `Encoder`, so the
    /// schema follows the type's `Codable` conformance, synthesized or custom, as ActivityKit's
    /// `JSONDecoder` (default settings) would read it.
    ///
    /// - A struct (any keyed container) is an `object`; its properties encoded with `encodeIfPresent`
    ///   (the synthesized code does this for Optionals) are left out of `required`.
    /// - `Date` is `{"type":"number","format":"apple-date"}`: seconds since 2001-01-01T00:00:00Z.
    /// - Every integer type is `integer`; `Double`, `Float` and `Decimal` are `number`; `String`,
    ///   `URL`, `UUID` and `Data` (base64) are `string`; `Bool` is `boolean`; `encodeNil` is `null`.
    /// - An array's `items` are its first element's schema. A `[String: V]` (or Int-keyed, or
    ///   `CodingKeyRepresentable`-keyed) dictionary is `{"type":"object","additionalProperties": V}`, V
    ///   from the value under the first key in text order.
    /// - A `CaseIterable` type whose cases each encode as one scalar (an enum with raw values) lists
    ///   every case's value in `enum`; an enum with raw values that is not `CaseIterable` is its raw type.
    /// - An Optional met as a value (an element of `[String?]`) also takes `null`.
    ///
    /// **Give examples with every Optional set, and with non-empty arrays and dictionaries.** A nil
    /// Optional, an empty array or an empty dictionary shows no value: it is described from its type
    /// alone, which is enough for a `String`, a number, a `Bool`, a `Date`, a `URL`, a `UUID` and a
    /// `CaseIterable` enum (and arrays and dictionaries of them); anything else (a struct) becomes
    /// `{}`, which accepts any value, so the gateway checks nothing there.
    ///
    /// - Throws: `PayloadSchemaError` naming the path of what cannot be described: an enum that encodes
    ///   as an object (associated values, or no raw values), a dictionary whose keys make a flat array, a
    ///   value that encodes as two kinds of value at once.
    public static func derive<T: Encodable>(from example: T) throws -> PayloadSchema {
        try record(example, at: []).schema()
    }

    /// What `value` encodes at `codingPath`, described: one recorded scalar (with its value when it is a
    /// JSON scalar, for `enum` lists). `listingCases` is false while the cases of a `CaseIterable` type
    /// are themselves being recorded.
    static func record<T: Encodable>(
        _ value: T, at codingPath: [any CodingKey], listingCases: Bool = true
    ) throws
        -> RecordedValue
    {
        if let schema = try recognized(value, at: codingPath) { return RecordedValue(schema) }
        if listingCases, let type = T.self as? any (CaseIterable & Encodable).Type,
            let schema = try enumeration(of: type, at: codingPath)
        {
            return RecordedValue(schema)
        }
        let recorder = SchemaRecorder(codingPath: codingPath)
        try value.encode(to: recorder)
        let schema = try recorder.recorded.schema()
        if recorder.recorded.isContainer, Mirror(reflecting: value).displayStyle == .enum {
            throw PayloadSchemaError(
                at: codingPath,
                "\(T.self) is an enum that encodes as an object (it has associated values or no raw values), so each case has "
                    + "its own shape; give it String or Int raw values (and CaseIterable), or use a struct")
        }
        return RecordedValue(schema, value: recorder.recorded.scalarValue)
    }

    /// The types whose own encoding would mislead (`JSONEncoder` writes them differently, or the value
    /// alone does not say enough), described directly; nil for any other.
    private static func recognized<T: Encodable>(_ value: T, at codingPath: [any CodingKey]) throws -> PayloadSchema? {
        switch value {
        case is Date, is URL, is UUID, is Data, is Decimal:
            return try describe(type: T.self, at: codingPath)
        case let optional as any OptionalProbe:
            guard let wrapped = optional.wrappedEncodable else { return try describe(type: T.self, at: codingPath) ?? .any }
            return try record(wrapped, at: codingPath).schema().orNull()
        case let dictionary as any DictionaryProbe:
            let type = Swift.type(of: dictionary)
            try checkKeys(of: type, at: codingPath)
            guard let first = dictionary.firstValueInKeyOrder else { return try describe(type: T.self, at: codingPath) }
            return .dictionary(of: try record(first.value, at: codingPath + [NameKey(first.key)]).schema())
        case let collection as any CollectionProbe where collection.isEmpty:
            return try describe(type: T.self, at: codingPath)
        default:
            return nil
        }
    }

    /// The schema of any value of `type`, where the type alone says it (scalars, dates, `CaseIterable`
    /// types, and Optionals, arrays and dictionaries of them); nil where it takes a value (a struct).
    static func describe(type: Any.Type, at codingPath: [any CodingKey]) throws -> PayloadSchema? {
        switch type {
        case is Date.Type: return .appleDate
        case is String.Type, is URL.Type, is UUID.Type, is Data.Type: return .string
        case is Bool.Type: return .boolean
        case is Double.Type, is Float.Type, is Decimal.Type: return .number
        case is any BinaryInteger.Type: return .integer
        case let optional as any OptionalProbe.Type:
            return try describe(type: optional.wrappedType, at: codingPath).map { $0.orNull() }
        case let dictionary as any DictionaryProbe.Type:
            try checkKeys(of: dictionary, at: codingPath)
            return .dictionary(of: try describe(type: dictionary.valueType, at: codingPath) ?? .any)
        case let collection as any CollectionProbe.Type:
            return .array(of: try describe(type: collection.elementType, at: codingPath + [IndexKey(0)]) ?? .any)
        case let cases as any (CaseIterable & Encodable).Type:
            return try enumeration(of: cases, at: codingPath)
        default:
            return nil
        }
    }

    /// Every case's value, when each case encodes as one JSON scalar; nil otherwise.
    private static func enumeration<C: CaseIterable & Encodable>(
        of type: C.Type, at codingPath: [any CodingKey]
    ) throws
        -> PayloadSchema?
    {
        var values: [Value] = []
        for item in type.allCases {
            guard let value = try record(item, at: codingPath, listingCases: false).scalarValue else { return nil }
            if !values.contains(value) { values.append(value) }
        }
        return values.isEmpty ? nil : .enumeration(values)
    }

    private static func checkKeys(of dictionary: any DictionaryProbe.Type, at codingPath: [any CodingKey]) throws {
        guard !dictionary.encodesAsObject else { return }
        throw PayloadSchemaError(
            at: codingPath,
            "a dictionary keyed by \(dictionary.keyType) encodes as a flat array of keys and values; "
                + "key it by String, Int or a CodingKeyRepresentable type")
    }
}

/// The coding key of a dictionary's value, named by its key.
@available(iOS 16.0, macOS 13.0, *)
struct NameKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
