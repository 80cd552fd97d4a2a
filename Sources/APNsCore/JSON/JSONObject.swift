/// A JSON object's members in the order they were given. Repeated keys are kept, so serializing
/// reproduces the input; lookups see the last occurrence, as most JSON readers do.
public struct JSONObject: Sendable, Equatable {
    /// One `"key": value` pair.
    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: JSONValue

        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// Every member, in order, repeated keys included.
    public var members: [Member]

    /// An empty object.
    public init() {
        self.members = []
    }

    public init(members: [Member]) {
        self.members = members
    }

    public init(_ pairs: [(key: String, value: JSONValue)]) {
        self.members = pairs.map { Member(key: $0.key, value: $0.value) }
    }

    /// The number of members, a repeated key counted each time.
    public var count: Int { members.count }

    public var isEmpty: Bool { members.isEmpty }

    /// The distinct keys, in order of first appearance.
    public var keys: [String] {
        var seen = Set<String>()
        return members.compactMap { seen.insert($0.key).inserted ? $0.key : nil }
    }

    /// The value of the last member named `key`. Objects from clients are small, so a scan beats
    /// building an index.
    public subscript(key: String) -> JSONValue? {
        members.last { $0.key == key }?.value
    }

    /// Gives `key` this value: the member already named `key` keeps its place, otherwise one is
    /// appended. Earlier repeats of the key are dropped, so it is sent only once.
    public mutating func set(_ key: String, _ value: JSONValue) {
        guard let last = members.lastIndex(where: { $0.key == key }) else {
            members.append(Member(key: key, value: value))
            return
        }
        members[last].value = value
        let earlier = members[..<last].indices.filter { members[$0].key == key }
        for index in earlier.reversed() {
            members.remove(at: index)
        }
    }

    /// Removes every member named `key`.
    public mutating func remove(_ key: String) {
        members.removeAll { $0.key == key }
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Members in the literal's order; repeated keys are kept, as in parsed input.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.members = elements.map { Member(key: $0.0, value: $0.1) }
    }
}
