extension JSONValue {
    /// Whether the two mean the same: object members in any order (a repeated key by its last value),
    /// numbers by numeric value (`1.0` matches `1`, `1e3` matches `1000`), everything else exactly.
    /// For tests and comparisons; `==` compares what was written.
    public func isEquivalent(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null):
            return true
        case (.bool(let left), .bool(let right)):
            return left == right
        case (.number(let left), .number(let right)):
            guard let leftValue = Double(left), let rightValue = Double(right) else { return left == right }
            return leftValue == rightValue
        case (.string(let left), .string(let right)):
            return left == right
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { $0.isEquivalent(to: $1) }
        case (.object(let left), .object(let right)):
            return left.isEquivalent(to: right)
        default:
            return false
        }
    }
}

extension JSONObject {
    /// Whether both have the same keys with equivalent values, in any order.
    public func isEquivalent(to other: JSONObject) -> Bool {
        let keys = self.keys
        guard Set(keys) == Set(other.keys) else { return false }
        return keys.allSatisfy { key in
            guard let mine = self[key], let theirs = other[key] else { return false }
            return mine.isEquivalent(to: theirs)
        }
    }
}
