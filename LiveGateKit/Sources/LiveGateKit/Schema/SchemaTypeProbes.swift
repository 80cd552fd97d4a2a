// How the derivation recognizes the generic standard types whose encoding alone does not say what they
// are: by casting a value (or its type) to one of these protocols, which only they adopt.

/// An `Optional`: nil encodes nothing that tells its type, and a value met through a generic `encode`
/// must also accept `null`.
@available(iOS 16.0, macOS 13.0, *)
protocol OptionalProbe {
    var wrappedEncodable: (any Encodable)? { get }
    static var wrappedType: Any.Type { get }
}

@available(iOS 16.0, macOS 13.0, *)
extension Optional: OptionalProbe where Wrapped: Encodable {
    var wrappedEncodable: (any Encodable)? { self }
    static var wrappedType: Any.Type { Wrapped.self }
}

/// A `Dictionary`: it encodes through a keyed container, like a struct, but takes any key.
@available(iOS 16.0, macOS 13.0, *)
protocol DictionaryProbe {
    /// The dictionary's first key in text order, with its value: the same dictionary gives the same
    /// schema in every run (a dictionary's own order changes from run to run).
    var firstValueInKeyOrder: (key: String, value: any Encodable)? { get }
    static var valueType: Any.Type { get }
    static var keyType: Any.Type { get }
    /// Whether it encodes as a JSON object: keys of String, Int or a `CodingKeyRepresentable` type. Other
    /// keys make a flat array of keys and values.
    static var encodesAsObject: Bool { get }
}

@available(iOS 16.0, macOS 13.0, *)
extension Dictionary: DictionaryProbe where Key: Encodable, Value: Encodable {
    var firstValueInKeyOrder: (key: String, value: any Encodable)? {
        self.map { (key: String(describing: $0.key), value: $0.value as any Encodable) }.min { $0.key < $1.key }
    }
    static var valueType: Any.Type { Value.self }
    static var keyType: Any.Type { Key.self }
    static var encodesAsObject: Bool {
        Key.self == String.self || Key.self == Int.self || Key.self is any CodingKeyRepresentable.Type
    }
}

/// An array or a set: when empty, only its element type says what its items are.
@available(iOS 16.0, macOS 13.0, *)
protocol CollectionProbe {
    var isEmpty: Bool { get }
    static var elementType: Any.Type { get }
}

@available(iOS 16.0, macOS 13.0, *)
extension Array: CollectionProbe where Element: Encodable {
    static var elementType: Any.Type { Element.self }
}

@available(iOS 16.0, macOS 13.0, *)
extension ContiguousArray: CollectionProbe where Element: Encodable {
    static var elementType: Any.Type { Element.self }
}

@available(iOS 16.0, macOS 13.0, *)
extension Set: CollectionProbe where Element: Encodable {
    static var elementType: Any.Type { Element.self }
}
