import APNsCore

/// One walk of a value through a compiled schema, deciding each place as Foundation's `JSONDecoder` would
/// for the Swift type the schema describes. It collects mismatches rather than stopping at the first, and
/// hands back a replacement only where an `apple-date` was converted, so a value that needs nothing is
/// neither copied nor rebuilt.
struct PayloadChecker {
    typealias Node = FlatPayloadSchema.Node
    private(set) var mismatches: [PayloadMismatch] = []
    /// Every mismatch found, also those past the limit of the list.
    private(set) var mismatchCount = 0
    private var path: PayloadPathStack
    private let nodes: UnsafeBufferPointer<Node>
    private let properties: UnsafeBufferPointer<FlatPayloadSchema.Property>
    private let places: [FlatPayloadSchema.PropertyName: Int]

    /// A checker over a ``FlatPayloadSchema``'s arrays, which must outlive it.
    init(
        nodes: UnsafeBufferPointer<Node>, properties: UnsafeBufferPointer<FlatPayloadSchema.Property>,
        places: [FlatPayloadSchema.PropertyName: Int], path: String
    ) {
        self.nodes = nodes
        self.properties = properties
        self.places = places
        self.path = PayloadPathStack(base: path)
    }

    /// Checks `value` against the schema at `node`; returns the value to send instead when something inside was
    /// converted, nil when it stays as it is.
    mutating func check(_ value: JSONValue, against node: Int) -> JSONValue? {
        let types = nodes[node].types ?? PayloadTypes(rawValue: .max)
        if nodes[node].isAppleDate, !value.isNull {
            return checkDate(value, against: node)
        }
        var replacement: JSONValue?
        switch value {
        case .null:
            guard types.contains(.null) else { return mismatch(nodes[node].expected, got: value) }
            // An Optional decodes null as nil whatever it wraps, so only an untyped `enum` still applies.
            guard nodes[node].types == nil else { return nil }
        case .bool:
            guard types.contains(.boolean) else { return mismatch(nodes[node].expected, got: value) }
        case .string:
            guard types.contains(.string) else { return mismatch(nodes[node].expected, got: value) }
        case .number(let lexeme):
            let asDouble = types.contains(.number)
            guard asDouble || types.contains(.integer) else { return mismatch(nodes[node].expected, got: value) }
            let decodes =
                (asDouble && DecodableNumber.double(lexeme) != nil)
                || (types.contains(.integer) && DecodableNumber.readsAsInt(lexeme))
            guard decodes else { return mismatch(asDouble ? "a number a Double can hold" : nodes[node].expected, got: value) }
        case .array(let elements):
            guard types.contains(.array) else { return mismatch(nodes[node].expected, got: value) }
            replacement = checkElements(elements, against: node).map(JSONValue.array)
        case .object(let object):
            guard types.contains(.object) else { return mismatch(nodes[node].expected, got: value) }
            replacement = checkMembers(object, against: node).map(JSONValue.object)
        }
        if let allowed = nodes[node].allowed, !allowed.contains(where: { $0.isEquivalent(to: value) }) {
            return mismatch(nodes[node].expected, got: value)
        }
        return replacement
    }

    private mutating func checkElements(_ elements: [JSONValue], against node: Int) -> [JSONValue]? {
        guard let items = nodes[node].items else { return nil }
        var replaced: [JSONValue]?
        for index in elements.indices {
            path.push(.element(index))
            if let replacement = check(elements[index], against: items) {
                if replaced == nil { replaced = elements }
                replaced?[index] = replacement
            }
            path.pop()
        }
        return replaced
    }

    /// Every member is checked, a repeated key at each occurrence: this Foundation decodes the first,
    /// older ones the last, and the app must decode whichever its device reads.
    private mutating func checkMembers(_ object: JSONObject, against node: Int) -> JSONObject? {
        var replaced: JSONObject?
        var requiredSeen: UInt64 = 0
        var next = nodes[node].properties.lowerBound
        let members = object.members
        for index in members.indices {
            let key = members[index].key
            let memberSchema: Int
            if let place = place(of: key, in: node, next: &next) {
                if let bit = properties[place].requiredIndex {
                    if bit < 64 { requiredSeen |= 1 << bit }
                } else if members[index].value.isNull {
                    continue  // an Optional: decodeIfPresent reads null as nil
                }
                memberSchema = properties[place].node
            } else {
                switch nodes[node].additionalProperties {
                case .ignored:
                    continue
                case .refused:
                    path.push(.member(key))
                    mismatch("nothing (the type has no such property)", got: members[index].value)
                    path.pop()
                    continue
                case .schema(let additional):
                    memberSchema = additional
                }
            }
            path.push(.member(key))
            if let replacement = check(members[index].value, against: memberSchema) {
                if replaced == nil { replaced = object }
                replaced?.members[index].value = replacement
            }
            path.pop()
        }
        let required = nodes[node].requiredKeys.count
        if required > 0, required > 64 || requiredSeen != UInt64.max >> (64 - required) {
            let keys = nodes[node].requiredKeys
            for (bit, key) in keys.enumerated() where bit < 64 ? requiredSeen & (1 << bit) == 0 : object[key] == nil {
                var next = nodes[node].properties.lowerBound
                let expected = place(of: key, in: node, next: &next).map { nodes[properties[$0].node].expected }
                path.push(.member(key))
                mismatch(expected ?? "a value", got: "nothing")
                path.pop()
            }
        }
        return replaced
    }

    /// The place of `node`'s property named `key`. Members mostly come in the schema's order, so the place
    /// at `next` is compared first and a hash is computed only when that guess fails; `next` moves past
    /// the one found.
    private func place(of key: String, in node: Int, next: inout Int) -> Int? {
        if next < nodes[node].properties.upperBound, properties[next].key == key {
            next += 1
            return next - 1
        }
        guard let place = places[FlatPayloadSchema.PropertyName(node: node, key: key)] else { return nil }
        next = place + 1
        return place
    }

    /// A Swift `Date`: ISO 8601 text converted to reference seconds; a number taken as reference seconds,
    /// unless it only makes sense as Unix time.
    private mutating func checkDate(_ value: JSONValue, against node: Int) -> JSONValue? {
        switch value {
        case .string(let text):
            guard let seconds = AppleDate.referenceSeconds(iso8601: text) else {
                return mismatch(AppleDate.expectedForText, got: value)
            }
            return .number(seconds)
        case .number(let lexeme):
            guard let seconds = DecodableNumber.double(lexeme) else { return mismatch(nodes[node].expected, got: value) }
            guard seconds <= AppleDate.latestReferenceSeconds else {
                return mismatch(AppleDate.expected, got: AppleDate.unixTimeExplanation(lexeme, value: seconds))
            }
            return nil
        default:
            return mismatch(nodes[node].expected, got: value)
        }
    }

    @discardableResult
    private mutating func mismatch(_ expected: String, got value: JSONValue) -> JSONValue? {
        mismatch(expected, got: PayloadValueText.describe(value))
    }

    /// Records a mismatch at the current path, up to ``PayloadSchema/mismatchLimit``; returns nil, the
    /// "nothing to replace" of the check that found it.
    @discardableResult
    private mutating func mismatch(_ expected: String, got: String) -> JSONValue? {
        mismatchCount += 1
        if mismatches.count < PayloadSchema.mismatchLimit {
            mismatches.append(PayloadMismatch(path: path.text, expected: expected, got: got))
        }
        return nil
    }
}
