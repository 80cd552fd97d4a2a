import CivilTime

/// Reads HTTP's `retry-after` (RFC 9110 §10.2.3), which APNs may send with a 429: either whole seconds
/// to wait, or the date (IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`) to wait until.
public enum RetryAfter {
    /// The wait the header asks for, counted from `now` (seconds since 1970); nil when the text is
    /// neither form. A date already past asks for no wait.
    public static func wait(_ text: String, now: Double) -> Duration? {
        let trimmed = text.trimmingSpaces
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            // Capped at about 30 years: far past any wait a caller takes, and safe to add to an instant.
            return .seconds(trimmed.count > 9 ? 999_999_999 : Int64(trimmed)!)
        }
        guard let instant = epochSeconds(ofHTTPDate: String(trimmed)) else { return nil }
        return .milliseconds(max(0, Int64((Double(instant) - now) * 1000)))
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Sun, 06 Nov 1994 08:49:37 GMT` as seconds since 1970; nil for anything else. The weekday is not
    /// checked against the date: it says nothing the date does not.
    static func epochSeconds(ofHTTPDate text: String) -> Int64? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), parts[5] == "GMT",
            let day = Int(parts[1]), parts[1].count == 2,
            let month = months.firstIndex(of: String(parts[2])).map({ $0 + 1 }),
            let year = Int(parts[3]), parts[3].count == 4
        else { return nil }
        let clock = parts[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
            (1...CivilCalendar.daysInMonth(month, year: year)).contains(day)
        else { return nil }
        let days = CivilCalendar.daysSinceEpoch(year: year, month: month, day: day)
        return Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }
}

extension String {
    fileprivate var trimmingSpaces: Substring {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }
}
