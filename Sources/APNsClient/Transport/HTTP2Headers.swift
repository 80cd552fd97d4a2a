/// An answer's header fields, names lower-cased, each name once: setting a name again replaces its
/// value, as in a dictionary.
///
/// The first field is held inline and the others in an array: an APNs answer keeps one field
/// (`apns-id`), and a dictionary would allocate its storage and hash the name for every answer.
public struct HTTP2Headers: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Field = (name: String, value: String)

    private var first: Field?
    private var rest: [Field] = []

    public init() {}

    public init(dictionaryLiteral fields: (String, String)...) {
        for (name, value) in fields { self[name] = value }
    }

    public var count: Int { first == nil ? 0 : 1 + rest.count }
    public var isEmpty: Bool { first == nil }

    /// The value of field `name`; setting nil removes the field.
    public subscript(name: String) -> String? {
        get {
            if let first, first.name == name { return first.value }
            return rest.first { $0.name == name }?.value
        }
        set {
            if let first, first.name == name {
                if let newValue {
                    self.first = (name, newValue)
                } else {
                    self.first = rest.isEmpty ? nil : rest.removeFirst()
                }
            } else if let index = rest.firstIndex(where: { $0.name == name }) {
                if let newValue {
                    rest[index].value = newValue
                } else {
                    rest.remove(at: index)
                }
            } else if let newValue {
                if first == nil {
                    first = (name, newValue)
                } else {
                    rest.append((name, newValue))
                }
            }
        }
    }

    public func makeIterator() -> Iterator {
        Iterator(first: first, rest: rest.makeIterator())
    }

    public struct Iterator: IteratorProtocol {
        fileprivate var first: Field?
        fileprivate var rest: IndexingIterator<[Field]>

        public mutating func next() -> Field? {
            if let field = first {
                first = nil
                return field
            }
            return rest.next()
        }
    }
}

extension HTTP2Headers: Equatable {
    /// The same fields, in any order.
    public static func == (lhs: HTTP2Headers, rhs: HTTP2Headers) -> Bool {
        lhs.count == rhs.count && lhs.allSatisfy { rhs[$0.name] == $0.value }
    }
}

extension HTTP2Headers: CustomStringConvertible {
    public var description: String {
        "[" + map { "\"\($0.name)\": \"\($0.value)\"" }.joined(separator: ", ") + "]"
    }
}
