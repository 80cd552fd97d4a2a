// The recorder's containers. Scalars become their JSON type (any integer type is `integer`, Float and
// Double are `number`); every other value goes through `PayloadSchema.describe`. `encodeIfPresent` marks
// a property Optional: a nil one is described from its type alone where that is enough (`{}` where not).

@available(iOS 16.0, macOS 13.0, *)
struct RecordingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: RecordedObject
    let codingPath: [any CodingKey]

    private func scalar(_ schema: PayloadSchema, _ value: PayloadSchema.Value?, _ key: Key, optional: Bool = false) {
        object.set(key.stringValue, to: RecordedValue(schema, value: value), optional: optional)
    }

    private func nilOptional<T>(_ type: T.Type, _ key: Key) throws {
        let schema = try PayloadSchema.describe(type: T.self, at: codingPath + [key]) ?? .any
        object.set(key.stringValue, to: RecordedValue(schema), optional: true)
    }

    mutating func encodeNil(forKey key: Key) throws { scalar(.null, .null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { scalar(.boolean, .boolean(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { scalar(.string, .string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { scalar(.number, .number(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { scalar(.number, .number(Double(value)), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { scalar(.integer, PayloadSchema.Value(integer: value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { scalar(.integer, PayloadSchema.Value(integer: value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { scalar(.integer, PayloadSchema.Value(integer: value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { scalar(.integer, PayloadSchema.Value(integer: value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { scalar(.integer, PayloadSchema.Value(integer: value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { scalar(.integer, PayloadSchema.Value(integer: value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { scalar(.integer, PayloadSchema.Value(integer: value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { scalar(.integer, PayloadSchema.Value(integer: value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { scalar(.integer, PayloadSchema.Value(integer: value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { scalar(.integer, PayloadSchema.Value(integer: value), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.set(key.stringValue, to: try PayloadSchema.record(value, at: codingPath + [key]), optional: false)
    }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        scalar(.boolean, value.map { .boolean($0) }, key, optional: true)
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        scalar(.string, value.map { .string($0) }, key, optional: true)
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        scalar(.number, value.map { .number($0) }, key, optional: true)
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        scalar(.number, value.map { .number(Double($0)) }, key, optional: true)
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { integer(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { integer(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { integer(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { integer(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { integer(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { integer(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { integer(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { integer(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { integer(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { integer(value, key) }

    private func integer<I: BinaryInteger>(_ value: I?, _ key: Key) {
        scalar(.integer, value.flatMap { PayloadSchema.Value(integer: $0) }, key, optional: true)
    }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return try nilOptional(T.self, key) }
        object.set(key.stringValue, to: try PayloadSchema.record(value, at: codingPath + [key]), optional: true)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    )
        -> KeyedEncodingContainer<NestedKey>
    {
        let path = codingPath + [key]
        return KeyedEncodingContainer(RecordingKeyedContainer<NestedKey>(object: nested(key).object(at: path), codingPath: path))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let path = codingPath + [key]
        return RecordingUnkeyedContainer(array: nested(key).array(at: path), codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        SchemaRecorder(codingPath: codingPath + [SuperKey()], recording: nestedValue("super"))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        SchemaRecorder(codingPath: codingPath + [key], recording: nested(key))
    }

    /// The value under `key` that a nested container or encoder fills in: a required property.
    private func nested(_ key: Key) -> RecordedValue { nestedValue(key.stringValue) }

    private func nestedValue(_ key: String) -> RecordedValue {
        let value = object.property(key)
        object.optional.remove(key)
        return value
    }
}

@available(iOS 16.0, macOS 13.0, *)
struct RecordingUnkeyedContainer: UnkeyedEncodingContainer {
    let array: RecordedArray
    let codingPath: [any CodingKey]
    var count: Int { array.elements.count }

    private var next: [any CodingKey] { codingPath + [IndexKey(count)] }

    private func scalar(_ schema: PayloadSchema, _ value: PayloadSchema.Value?) {
        array.elements.append(RecordedValue(schema, value: value))
    }

    mutating func encodeNil() throws { scalar(.null, .null) }
    mutating func encode(_ value: Bool) throws { scalar(.boolean, .boolean(value)) }
    mutating func encode(_ value: String) throws { scalar(.string, .string(value)) }
    mutating func encode(_ value: Double) throws { scalar(.number, .number(value)) }
    mutating func encode(_ value: Float) throws { scalar(.number, .number(Double(value))) }
    mutating func encode(_ value: Int) throws { scalar(.integer, PayloadSchema.Value(integer: value)) }
    mutating func encode(_ value: Int8) throws { scalar(.integer, PayloadSchema.Value(integer: value)) }
    mutating func encode(_ value: Int16) throws { scalar(.integer, PayloadSchema.Value(integer: value)) }
    mutating func encode(_ value: Int32) throws { scalar(.integer, PayloadSchema.Value(integer: value)) }
    mutating func encode(_ value: Int64) throws { scalar(.integer, PayloadSchema.Value(integer: value)) }
    mutating func encode(_ value: UInt) throws { scalar(.integer, PayloadSchema.Value(integer: value)) }
    mutating func encode(_ value: UInt8) throws { scalar(.integer, PayloadSchema.Value(integer: value)) }
    mutating func encode(_ value: UInt16) throws { scalar(.integer, PayloadSchema.Value(integer: value)) }
    mutating func encode(_ value: UInt32) throws { scalar(.integer, PayloadSchema.Value(integer: value)) }
    mutating func encode(_ value: UInt64) throws { scalar(.integer, PayloadSchema.Value(integer: value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        array.elements.append(try PayloadSchema.record(value, at: next))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = next
        let element = RecordedValue()
        array.elements.append(element)
        return KeyedEncodingContainer(RecordingKeyedContainer<NestedKey>(object: element.object(at: path), codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = next
        let element = RecordedValue()
        array.elements.append(element)
        return RecordingUnkeyedContainer(array: element.array(at: path), codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let path = next
        let element = RecordedValue()
        array.elements.append(element)
        return SchemaRecorder(codingPath: path, recording: element)
    }
}

@available(iOS 16.0, macOS 13.0, *)
struct RecordingSingleValueContainer: SingleValueEncodingContainer {
    let recorded: RecordedValue
    let codingPath: [any CodingKey]

    private func scalar(_ schema: PayloadSchema, _ value: PayloadSchema.Value?) {
        recorded.set(schema, value: value, at: codingPath)
    }

    mutating func encodeNil() throws { scalar(.null, .null) }
    mutating func encode(_ value: Bool) throws { scalar(.boolean, .boolean(value)) }
    mutating func encode(_ value: String) throws { scalar(.string, .string(value)) }
    mutating func encode(_ value: Double) throws { scalar(.number, .number(value)) }
    mutating func encode(_ value: Float) throws { scalar(.number, .number(Double(value))) }
    mutating func encode(_ value: Int) throws { scalar(.integer, PayloadSchema.Value(integer: value)) }
    mutating func encode(_ value: Int8) throws { scalar(.integer, PayloadSchema.Value(integer: value)) }
    mutating func encode(_ value: Int16) throws { scalar(.integer, PayloadSchema.Value(integer: value)) }
    mutating func encode(_ value: Int32) throws { scalar(.integer, PayloadSchema.Value(integer: value)) }
    mutating func encode(_ value: Int64) throws { scalar(.integer, PayloadSchema.Value(integer: value)) }
    mutating func encode(_ value: UInt) throws { scalar(.integer, PayloadSchema.Value(integer: value)) }
    mutating func encode(_ value: UInt8) throws { scalar(.integer, PayloadSchema.Value(integer: value)) }
    mutating func encode(_ value: UInt16) throws { scalar(.integer, PayloadSchema.Value(integer: value)) }
    mutating func encode(_ value: UInt32) throws { scalar(.integer, PayloadSchema.Value(integer: value)) }
    mutating func encode(_ value: UInt64) throws { scalar(.integer, PayloadSchema.Value(integer: value)) }

    /// A value that encodes as another (a wrapper, a raw value): what that one is, this one is.
    mutating func encode<T: Encodable>(_ value: T) throws {
        let inner = try PayloadSchema.record(value, at: codingPath)
        recorded.set(try inner.schema(), value: inner.scalarValue, at: codingPath)
    }
}

/// The key `superEncoder()` encodes under, as `JSONEncoder` names it.
@available(iOS 16.0, macOS 13.0, *)
struct SuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { self.init() }
    init?(intValue: Int) { nil }
}

@available(iOS 16.0, macOS 13.0, *)
extension PayloadSchema.Value {
    /// An integer as an `enum` value; nil for one beyond Int64 (still an `integer`, but not listed).
    init?<I: BinaryInteger>(integer: I) {
        guard let value = Int64(exactly: integer) else { return nil }
        self = .integer(value)
    }
}
