import APNsCore

/// A compiled schema laid out as two flat arrays, nodes and their properties, that point at each other by
/// index. One schema serves every request thread at once; a walk over a tree of class nodes retained and
/// released each node it passed, and those shared reference counts were most of a check's cost. A check
/// reads these arrays through buffer pointers and touches no reference count per member.
struct FlatPayloadSchema: Sendable {
    struct Node: Sendable {
        let types: PayloadTypes?
        /// Its properties' places in `properties`, in the schema's order.
        let properties: Range<Int>
        let requiredKeys: [String]
        let additionalProperties: AdditionalProperties
        let items: Int?
        let allowed: [JSONValue]?
        let isAppleDate: Bool
        let expected: String
    }

    enum AdditionalProperties: Sendable {
        case ignored
        case refused
        case schema(Int)
    }

    struct Property: Sendable {
        let key: String
        let node: Int
        /// Its place in its object's `requiredKeys`, or nil for an Optional.
        let requiredIndex: Int?
    }

    struct PropertyName: Hashable, Sendable {
        let node: Int
        let key: String
    }

    private(set) var nodes: [Node] = []
    private(set) var properties: [Property] = []
    /// Where each node's property sits in `properties`, for members that come out of the schema's order.
    private(set) var places: [PropertyName: Int] = [:]
    /// The root's place in `nodes`: children are laid out before their parents.
    private(set) var root = 0

    init(_ tree: PayloadSchemaNode) {
        root = add(tree)
    }

    /// Checks `value`, found at `path`, against the root.
    func check(_ value: JSONValue, at path: String) -> PayloadCheck {
        nodes.withUnsafeBufferPointer { nodes in
            properties.withUnsafeBufferPointer { properties in
                var checker = PayloadChecker(nodes: nodes, properties: properties, places: places, path: path)
                let converted = checker.check(value, against: root)
                return PayloadCheck(value: converted ?? value, mismatches: checker.mismatches, found: checker.mismatchCount)
            }
        }
    }

    private mutating func add(_ tree: PayloadSchemaNode) -> Int {
        let children = tree.orderedProperties.map { (named: $0, node: add($0.property.schema)) }
        let additional: AdditionalProperties =
            switch tree.additionalProperties {
            case .ignored: .ignored
            case .refused: .refused
            case .schema(let schema): .schema(add(schema))
            }
        let items = tree.items.map { add($0) }
        let index = nodes.count
        let first = properties.count
        for child in children {
            places[PropertyName(node: index, key: child.named.key)] = properties.count
            properties.append(Property(key: child.named.key, node: child.node, requiredIndex: child.named.property.requiredIndex))
        }
        nodes.append(
            Node(
                types: tree.types, properties: first..<properties.count, requiredKeys: tree.requiredKeys,
                additionalProperties: additional, items: items, allowed: tree.allowed, isAppleDate: tree.isAppleDate,
                expected: tree.expected))
        return index
    }
}
