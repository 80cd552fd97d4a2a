import Foundation

/// Reads and writes `timestamptz` text in the ISO style the client sets on every connection (UTC).
public enum PostgresTimestamp {
    public static func format(_ date: Date) -> String {
        let microseconds = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        let seconds = microseconds.floorDivided(by: 1_000_000)
        let fraction = microseconds - seconds * 1_000_000
        let days = seconds.floorDivided(by: 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(fromDaysSinceEpoch: days)
        // Built by hand: String(format:) goes through CFString and is the slow part of a batch insert.
        var text = ""
        text.reserveCapacity(29)
        func append(_ value: Int64, digits: Int) {
            let decimal = String(value)
            text += String(repeating: "0", count: max(0, digits - decimal.utf8.count)) + decimal
        }
        append(year, digits: 4)
        text += "-"
        append(month, digits: 2)
        text += "-"
        append(day, digits: 2)
        text += " "
        append(secondOfDay / 3600, digits: 2)
        text += ":"
        append((secondOfDay / 60) % 60, digits: 2)
        text += ":"
        append(secondOfDay % 60, digits: 2)
        text += "."
        append(fraction, digits: 6)
        text += "+00"
        return text
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
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + Double(microseconds) / 1_000_000)
    }

    // Howard Hinnant's days-from-civil algorithm: exact for the proleptic Gregorian calendar.
    static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = y.floorDivided(by: 400)
        let yearOfEra = y - era * 400
        let monthIndex = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civilDate(fromDaysSinceEpoch days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = z.floorDivided(by: 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
