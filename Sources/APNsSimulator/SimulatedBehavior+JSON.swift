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
    /// - `{"status": S, "reason": R, "times": N, "retry_after": A}`: answer S (400–599) with R, the next N
    ///   times or, without `times`, always. `reason` defaults to APNs's usual one for S; `{"status":410}`
    ///   is `Unregistered` with its timestamp. `retry_after` adds a `retry-after` header: whole seconds
    ///   (a number or digits) or an HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`), sent as given.
    init(controlJSON body: [UInt8]) throws(ControlRequestError) {
        guard let object = (try? JSONValue.parse(body))?.objectValue else {
            throw ControlRequestError(#"the body must be a JSON object such as {"status":410} or {"delay_ms":200}"#)
        }
        let known = ["status", "reason", "times", "retry_after", "delay_ms"]
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            throw ControlRequestError("unknown field '\(unknown)': use status, reason, times, retry_after or delay_ms")
        }
        if object["delay_ms"] != nil {
            guard object.count == 1 else {
                throw ControlRequestError("delay_ms cannot be combined with status, reason, times or retry_after")
            }
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
        let retryAfter = try Self.retryAfter(object["retry_after"])
        if object["times"] != nil {
            self = .failFirst(
                times: try Self.integer(object, "times", in: 1...1_000_000), status: status, reason: reason, retryAfter: retryAfter)
        } else if status == 410, reason == "Unregistered", retryAfter == nil {
            self = .unregistered
        } else {
            self = .fail(status: status, reason: reason, retryAfter: retryAfter)
        }
    }

    /// The behavior as a control request would give it (the answer to `PUT /_sim/tokens/<hex>`).
    var controlJSON: JSONValue {
        switch self {
        case .unregistered: .object(["status": .integer(410), "reason": .string("Unregistered")])
        case .fail(let status, let reason, let retryAfter):
            Self.failure(status: status, reason: reason, times: nil, retryAfter: retryAfter)
        case .failFirst(let times, let status, let reason, let retryAfter):
            Self.failure(status: status, reason: reason, times: times, retryAfter: retryAfter)
        case .delay(let milliseconds): .object(["delay_ms": .integer(milliseconds)])
        }
    }

    private static func failure(status: Int, reason: String, times: Int?, retryAfter: String?) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("status", .integer(status)), ("reason", .string(reason))]
        if let times { members.append(("times", .integer(times))) }
        if let retryAfter { members.append(("retry_after", .string(retryAfter))) }
        return .object(JSONObject(members))
    }

    /// `retry_after`'s text as the header carries it: a whole number of seconds (0 to a day), or an
    /// HTTP date as `RetryAfter` reads it.
    private static func retryAfter(_ value: JSONValue?) throws(ControlRequestError) -> String? {
        guard let value else { return nil }
        if let seconds = value.numberLexeme.flatMap({ Int($0) }), (0...86_400).contains(seconds) { return String(seconds) }
        if let text = value.stringValue, text.utf8.count <= 64, RetryAfter.wait(text, now: 0) != nil { return text }
        throw ControlRequestError(
            "retry_after must be seconds from 0 to 86400 or an HTTP date such as \"Sun, 06 Nov 1994 08:49:37 GMT\"")
    }

    private static func integer(_ object: JSONObject, _ key: String, in range: ClosedRange<Int>) throws(ControlRequestError) -> Int {
        guard let value = object[key]?.numberLexeme.flatMap({ Int($0) }), range.contains(value) else {
            throw ControlRequestError("\(key) must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }
}
