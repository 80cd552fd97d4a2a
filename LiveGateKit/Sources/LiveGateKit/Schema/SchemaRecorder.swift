/// An `Encoder` that writes nothing: it records the shape of what a value encodes (which containers,
/// which keys, which scalar types, which keys went through `encodeIfPresent`), and turns that into a
/// `PayloadSchema`. Every value encoded inside goes through `PayloadSchema.describe`, so dates, optionals,
/// dictionaries and enums are recognized at any depth.
@available(iOS 16.0, macOS 13.0, *)
final class SchemaRecorder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    let recorded: RecordedValue

    init(codingPath: [any CodingKey], recording recorded: RecordedValue = RecordedValue()) {
        self.codingPath = codingPath
        self.recorded = recorded
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(RecordingKeyedContainer<Key>(object: recorded.object(at: codingPath), codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        RecordingUnkeyedContainer(array: recorded.array(at: codingPath), codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        RecordingSingleValueContainer(recorded: recorded, codingPath: codingPath)
    }
}

/// What one value encoded, filled in as it encodes: shared by reference with the containers that write it.
@available(iOS 16.0, macOS 13.0, *)
final class RecordedValue {
    enum Content {
        /// Nothing yet; a value that encodes nothing is an empty object, as `JSONEncoder` writes it.
        case nothing
        /// One described value, with the value itself when it is a JSON scalar (for `enum` lists).
        case scalar(PayloadSchema, PayloadSchema.Value?)
        case object(RecordedObject)
        case array(RecordedArray)
    }

    private(set) var content = Content.nothing
    /// A value that asked for two kinds of container: `JSONEncoder` stops the program on it.
    private(set) var problem: PayloadSchemaError?

    init() {}

    init(_ schema: PayloadSchema, value: PayloadSchema.Value? = nil) {
        content = .scalar(schema, value)
    }

    func set(_ schema: PayloadSchema, value: PayloadSchema.Value?, at codingPath: [any CodingKey]) {
        if case .nothing = content {
            content = .scalar(schema, value)
        } else {
            conflict(at: codingPath)
        }
    }

    /// The object being encoded: a second keyed container of the same value adds to it (a subclass and its
    /// superclass encoding into one encoder).
    func object(at codingPath: [any CodingKey]) -> RecordedObject {
        switch content {
        case .object(let object):
            return object
        case .nothing:
            let object = RecordedObject()
            content = .object(object)
            return object
        default:
            conflict(at: codingPath)
            return RecordedObject()
        }
    }

    func array(at codingPath: [any CodingKey]) -> RecordedArray {
        switch content {
        case .array(let array):
            return array
        case .nothing:
            let array = RecordedArray()
            content = .array(array)
            return array
        default:
            conflict(at: codingPath)
            return RecordedArray()
        }
    }

    private func conflict(at codingPath: [any CodingKey]) {
        if problem == nil {
            problem = PayloadSchemaError(at: codingPath, "it encodes as two kinds of value (a scalar, an object or an array) at once")
        }
    }

    /// Whether the value encoded a container (an object or an array) rather than one scalar.
    var isContainer: Bool {
        switch content {
        case .object, .array: true
        case .nothing, .scalar: false
        }
    }

    /// The scalar value recorded, if the value was one JSON scalar.
    var scalarValue: PayloadSchema.Value? {
        if case .scalar(_, let value) = content { return value }
        return nil
    }

    /// The schema of what was recorded; throws the first problem met, here or inside.
    func schema() throws -> PayloadSchema {
        if let problem { throw problem }
        switch content {
        case .nothing:
            return .object(properties: [:])
        case .scalar(let schema, _):
            return schema
        case .object(let object):
            var properties: [String: PayloadSchema] = [:]
            for (key, value) in object.properties { properties[key] = try value.schema() }
            let required = object.properties.keys.filter { !object.optional.contains($0) }
            return .object(properties: properties, required: required)
        case .array(let array):
            // The first element stands for all; an empty array's items are unknown, and so any.
            return .array(of: try array.elements.first?.schema() ?? .any)
        }
    }
}

/// An object being recorded: its properties, and which of them are Optionals (`encodeIfPresent`).
@available(iOS 16.0, macOS 13.0, *)
final class RecordedObject {
    var properties: [String: RecordedValue] = [:]
    var optional: Set<String> = []

    /// The property under `key`, made (and marked required) if it is new.
    func property(_ key: String) -> RecordedValue {
        if let existing = properties[key] { return existing }
        let value = RecordedValue()
        properties[key] = value
        return value
    }

    func set(_ key: String, to value: RecordedValue, optional isOptional: Bool) {
        properties[key] = value
        if isOptional { optional.insert(key) } else { optional.remove(key) }
    }
}

/// An array being recorded, element by element.
@available(iOS 16.0, macOS 13.0, *)
final class RecordedArray {
    var elements: [RecordedValue] = []
}

/// The coding key of an array element, named as `JSONEncoder` names it.
@available(iOS 16.0, macOS 13.0, *)
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(_ index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}
