import APNsCore

/// A control request's JSON object, read field by field, with messages that say what to send instead.
struct ControlBody {
    let object: JSONObject

    /// Refuses anything but an object of the `known` fields; `example` shows a good body.
    init(_ body: [UInt8], example: String, known: [String]) throws(ControlRequestError) {
        guard let object = (try? JSONValue.parse(body))?.objectValue else {
            throw ControlRequestError("the body must be a JSON object such as \(example)")
        }
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            throw ControlRequestError("unknown field '\(unknown)': use \(known.joined(separator: ", "))")
        }
        self.object = object
    }

    func has(_ key: String) -> Bool { object[key] != nil }

    /// The integer at `key`, nil if absent.
    func integer(_ key: String, in range: ClosedRange<Int>) throws(ControlRequestError) -> Int? {
        guard let value = object[key] else { return nil }
        guard let integer = value.numberLexeme.flatMap({ Int($0) }), range.contains(integer) else {
            throw ControlRequestError("\(key) must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return integer
    }

    /// The string at `key`, nil if absent.
    func string(_ key: String) throws(ControlRequestError) -> String? {
        guard let value = object[key] else { return nil }
        guard let text = value.stringValue else { throw ControlRequestError("\(key) must be a string") }
        return text
    }
}
