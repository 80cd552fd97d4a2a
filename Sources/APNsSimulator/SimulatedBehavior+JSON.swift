import APNsCore

extension SimulatedBehavior {
    /// The reason APNs gives with each status it documents, for a control request that names only a status.
    static let defaultReasons: [Int: String] = [
        400: "BadDeviceToken", 403: "InvalidProviderToken", 404: "BadPath", 405: "MethodNotAllowed",
        410: "Unregistered", 413: "PayloadTooLarge", 429: "TooManyRequests", 500: "InternalServerError",
        503: "ServiceUnavailable",
    ]

    /// A control request's body (`PUT /_sim/tokens/<hex>`):
    /// - `{"delay_ms": N}`: answer normally after N milliseconds (at most 10 minutes);
    /// - `{"status": S, "reason": R, "times": N}`: answer S (400–599) with R, the next N times or, without
    ///   `times`, always. `reason` defaults to APNs's usual one for S; `{"status":410}` is `Unregistered`
    ///   with its timestamp.
    init(controlJSON body: [UInt8]) throws(ControlRequestError) {
        guard let object = (try? JSONValue.parse(body))?.objectValue else {
            throw ControlRequestError(#"the body must be a JSON object such as {"status":410} or {"delay_ms":200}"#)
        }
        let known = ["status", "reason", "times", "delay_ms"]
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            throw ControlRequestError("unknown field '\(unknown)': use status, reason, times or delay_ms")
        }
        if object["delay_ms"] != nil {
            guard object.count == 1 else { throw ControlRequestError("delay_ms cannot be combined with status, reason or times") }
            self = .delay(milliseconds: try Self.integer(object, "delay_ms", in: 0...600_000))
            return
        }
        guard object["status"] != nil else { throw ControlRequestError("give status (with reason, times) or delay_ms") }
        let status = try Self.integer(object, "status", in: 400...599)
        let reason: String
        if let given = object["reason"] {
            // It is written into the answer's JSON as is, as APNs's own reasons are: letters and digits.
            guard let text = given.stringValue, (1...64).contains(text.utf8.count),
                text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
            else { throw ControlRequestError("reason must be an APNs reason such as \"Unregistered\" (letters and digits)") }
            reason = text
        } else {
            guard let usual = Self.defaultReasons[status] else {
                throw ControlRequestError("status \(status) has no usual APNs reason: give one in reason")
            }
            reason = usual
        }
        if object["times"] != nil {
            self = .failFirst(times: try Self.integer(object, "times", in: 1...1_000_000), status: status, reason: reason)
        } else if status == 410, reason == "Unregistered" {
            self = .unregistered
        } else {
            self = .fail(status: status, reason: reason)
        }
    }

    /// The behavior as a control request would give it (the answer to `PUT /_sim/tokens/<hex>`).
    var controlJSON: JSONValue {
        switch self {
        case .unregistered: .object(["status": .integer(410), "reason": .string("Unregistered")])
        case .fail(let status, let reason): .object(["status": .integer(status), "reason": .string(reason)])
        case .failFirst(let times, let status, let reason):
            .object(["status": .integer(status), "reason": .string(reason), "times": .integer(times)])
        case .delay(let milliseconds): .object(["delay_ms": .integer(milliseconds)])
        }
    }

    private static func integer(_ object: JSONObject, _ key: String, in range: ClosedRange<Int>) throws(ControlRequestError) -> Int {
        guard let value = object[key]?.numberLexeme.flatMap({ Int($0) }), range.contains(value) else {
            throw ControlRequestError("\(key) must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }
}
