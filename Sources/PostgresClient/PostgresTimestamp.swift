import CivilTime
import Foundation

/// Reads and writes `timestamptz` text in the ISO style the client sets on every connection (UTC).
public enum PostgresTimestamp {
    /// 0001-01-01T00:00:00Z: PostgreSQL has no year 0 (ISO 8601's 1 BC), so an earlier instant is
    /// written as this one rather than as a literal the server refuses.
    public static let earliest = Date(timeIntervalSince1970: -62_135_596_800)

    public static func format(_ date: Date) -> String {
        let microseconds = Int64((max(date, earliest).timeIntervalSince1970 * 1_000_000).rounded())
        return UTCTimestamp.format(microseconds, unitsPerSecond: 1_000_000, separator: UInt8(ascii: " "), zone: "+00")
    }

    /// Parses `2026-11-22 04:48:00.123456+00` (offset may be `+05:30` or `-08`).
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19, bytes[4] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: " ") else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                guard index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 else { return nil }
                value = value * 10 + Int64(bytes[index] - 48)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        var index = 19
        var microseconds: Int64 = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                if digits < 6 { microseconds = microseconds * 10 + Int64(bytes[index] - 48) }
                digits += 1
                index += 1
            }
            if digits < 6 {
                for _ in digits..<6 { microseconds *= 10 }
            }
        }
        var offsetSeconds: Int64 = 0
        if index < bytes.count {
            let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            guard let hours = number(index + 1..<index + 3) else { return nil }
            var minutes: Int64 = 0
            if index + 3 < bytes.count, bytes[index + 3] == UInt8(ascii: ":") {
                guard let offsetMinutes = number(index + 4..<index + 6) else { return nil }
                minutes = offsetMinutes
            }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        }
        let days = Int64(CivilCalendar.daysSinceEpoch(year: Int(year), month: Int(month), day: Int(day)))
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + Double(microseconds) / 1_000_000)
    }
}
