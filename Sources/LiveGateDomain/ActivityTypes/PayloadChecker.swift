import APNsCore

/// One walk of a value through a compiled schema, deciding each place as Foundation's `JSONDecoder` would
/// for the Swift type the schema describes. It collects mismatches rather than stopping at the first, and
/// hands back a replacement only where an `apple-date` was converted, so a value that needs nothing is
/// neither copied nor rebuilt.
struct PayloadChecker {
    private(set) var mismatches: [PayloadMismatch] = []
    private var path: PayloadPathStack

    init(path: String) {
        self.path = PayloadPathStack(base: path)
    }

    /// Checks `value` against `schema`; returns the value to send instead when something inside was
    /// converted, nil when it stays as it is.
    mutating func check(_ value: JSONValue, against schema: PayloadSchemaNode) -> JSONValue? {
        let types = schema.types ?? PayloadTypes(rawValue: .max)
        if schema.isAppleDate, !value.isNull {
            return checkDate(value, against: schema)
        }
        var replacement: JSONValue?
        switch value {
        case .null:
            guard types.contains(.null) else { return mismatch(schema.expected, got: value) }
            // An Optional decodes null as nil whatever it wraps, so only an untyped `enum` still applies.
            guard schema.types == nil else { return nil }
        case .bool:
            guard types.contains(.boolean) else { return mismatch(schema.expected, got: value) }
        case .string:
            guard types.contains(.string) else { return mismatch(schema.expected, got: value) }
        case .number(let lexeme):
            let asDouble = types.contains(.number)
            guard asDouble || types.contains(.integer) else { return mismatch(schema.expected, got: value) }
            let decodes =
                (asDouble && DecodableNumber.double(lexeme) != nil)
                || (types.contains(.integer) && DecodableNumber.readsAsInt(lexeme))
            guard decodes else { return mismatch(asDouble ? "a number a Double can hold" : schema.expected, got: value) }
        case .array(let elements):
            guard types.contains(.array) else { return mismatch(schema.expected, got: value) }
            replacement = checkElements(elements, against: schema).map(JSONValue.array)
        case .object(let object):
            guard types.contains(.object) else { return mismatch(schema.expected, got: value) }
            replacement = checkMembers(object, against: schema).map(JSONValue.object)
        }
        if let allowed = schema.allowed, !allowed.contains(where: { $0.isEquivalent(to: value) }) {
            return mismatch(schema.expected, got: value)
        }
        return replacement
    }

    private mutating func checkElements(_ elements: [JSONValue], against schema: PayloadSchemaNode) -> [JSONValue]? {
        guard let items = schema.items else { return nil }
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
    private mutating func checkMembers(_ object: JSONObject, against schema: PayloadSchemaNode) -> JSONObject? {
        var replaced: JSONObject?
        var requiredSeen: UInt64 = 0
        for (index, member) in object.members.enumerated() {
            let memberSchema: PayloadSchemaNode
            if let property = schema.properties[member.key] {
                if let bit = property.requiredIndex {
                    if bit < 64 { requiredSeen |= 1 << bit }
                } else if member.value.isNull {
                    continue  // an Optional: decodeIfPresent reads null as nil
                }
                memberSchema = property.schema
            } else {
                switch schema.additionalProperties {
                case .ignored:
                    continue
                case .refused:
                    path.push(.member(member.key))
                    mismatch("nothing (the type has no such property)", got: member.value)
                    path.pop()
                    continue
                case .schema(let additional):
                    memberSchema = additional
                }
            }
            path.push(.member(member.key))
            if let replacement = check(member.value, against: memberSchema) {
                if replaced == nil { replaced = object }
                replaced?.members[index].value = replacement
            }
            path.pop()
        }
        let keys = schema.requiredKeys
        if !keys.isEmpty, keys.count > 64 || requiredSeen != UInt64.max >> (64 - keys.count) {
            for (bit, key) in keys.enumerated() where bit < 64 ? requiredSeen & (1 << bit) == 0 : object[key] == nil {
                path.push(.member(key))
                mismatch(schema.properties[key]?.schema.expected ?? "a value", got: "nothing")
                path.pop()
            }
        }
        return replaced
    }

    /// A Swift `Date`: ISO 8601 text converted to reference seconds; a number taken as reference seconds,
    /// unless it only makes sense as Unix time.
    private mutating func checkDate(_ value: JSONValue, against schema: PayloadSchemaNode) -> JSONValue? {
        switch value {
        case .string(let text):
            guard let seconds = AppleDate.referenceSeconds(iso8601: text) else {
                return mismatch(AppleDate.expectedForText, got: value)
            }
            return .number(seconds)
        case .number(let lexeme):
            guard let seconds = DecodableNumber.double(lexeme) else { return mismatch(schema.expected, got: value) }
            guard seconds <= AppleDate.latestReferenceSeconds else {
                return mismatch(AppleDate.expected, got: AppleDate.unixTimeExplanation(lexeme, value: seconds))
            }
            return nil
        default:
            return mismatch(schema.expected, got: value)
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
        if mismatches.count < PayloadSchema.mismatchLimit {
            mismatches.append(PayloadMismatch(path: path.text, expected: expected, got: got))
        }
        return nil
    }
}
