import CivilTime

/// Reads the ISO 8601 date-times Braze's API takes (`stale_date`, `dismissal_date`) as Unix time.
public enum ISO8601Timestamp {
    /// Seconds since 1970-01-01T00:00:00Z for `YYYY-MM-DDTHH:MM:SS[.fraction]zone`, or nil if the
    /// text is anything else.
    ///
    /// - The separator is `T` (or `t`); a space is refused.
    /// - Fractional seconds may have any number of digits and are dropped, which rounds toward the
    ///   earlier second.
    /// - The zone is required, since a local time without one names no instant: `Z`, `z`, `+HH:MM`,
    ///   `+HHMM` or `+HH`, and the same with `-`.
    /// - Every field is range-checked, including the day against the month in leap years. Second 60
    ///   (a leap second) is accepted and counts as the first second of the next minute, as POSIX
    ///   time has no leap seconds.
    public static func epochSeconds(from text: String) -> Int64? {
        instant(from: text)?.seconds
    }

    /// Milliseconds since 1970-01-01T00:00:00Z, for a time that must not be read as earlier than
    /// written (`send_at`): the same forms as `epochSeconds(from:)`, with a fraction beyond
    /// milliseconds rounded up to the next millisecond.
    public static func epochMilliseconds(from text: String) -> Int64? {
        guard let (seconds, fraction) = instant(from: text) else { return nil }
        return seconds * 1_000 + fraction
    }

    /// Whole seconds, and the fraction in milliseconds rounded up (0...1000).
    private static func instant(from text: String) -> (seconds: Int64, milliseconds: Int64)? {
        var text = text
        return text.withUTF8 { instant(fromUTF8: $0) }
    }

    private static func instant(fromUTF8 bytes: UnsafeBufferPointer<UInt8>) -> (seconds: Int64, milliseconds: Int64)? {
        var scanner = Scanner(bytes: bytes)
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
            let month = scanner.number(digits: 2), scanner.skip("-"),
            let day = scanner.number(digits: 2), scanner.skip("T") || scanner.skip("t"),
            let hour = scanner.number(digits: 2), scanner.skip(":"),
            let minute = scanner.number(digits: 2), scanner.skip(":"),
            let second = scanner.number(digits: 2)
        else { return nil }
        var milliseconds: Int64 = 0
        if scanner.skip(".") {
            guard let fraction = scanner.fractionInMilliseconds() else { return nil }
            milliseconds = fraction
        }
        guard let offset = scanner.zoneOffsetSeconds(), scanner.isAtEnd else { return nil }

        guard (1...12).contains(month), (1...CivilCalendar.daysInMonth(month, year: year)).contains(day),
            hour < 24, minute < 60, second <= 60
        else { return nil }

        let days = CivilCalendar.daysSinceEpoch(year: year, month: month, day: day)
        return (Int64(days * 86_400 + hour * 3_600 + minute * 60 + second - offset), milliseconds)
    }

    /// Reads fixed-width ASCII fields left to right.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        var isAtEnd: Bool { position == bytes.count }

        /// Exactly `digits` decimal digits as a number.
        mutating func number(digits: Int) -> Int? {
            guard bytes.count - position >= digits else { return nil }
            var value = 0
            for byte in bytes[position..<position + digits] {
                guard byte.isDigit else { return nil }
                value = value * 10 + Int(byte - .digitZero)
            }
            position += digits
            return value
        }

        /// Steps over `character` if it comes next.
        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard !isAtEnd, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        /// Steps over a run of digits, returning how many there were.
        mutating func skipDigits() -> Int {
            let start = position
            while !isAtEnd, bytes[position].isDigit { position += 1 }
            return position - start
        }

        /// A run of at least one digit read as a decimal fraction of a second, in milliseconds rounded up.
        mutating func fractionInMilliseconds() -> Int64? {
            let start = position
            guard skipDigits() > 0 else { return nil }
            var milliseconds: Int64 = 0
            for index in 0..<3 {
                let digit = start + index < position ? Int64(bytes[start + index] - .digitZero) : 0
                milliseconds = milliseconds * 10 + digit
            }
            let beyond = bytes[min(start + 3, position)..<position]
            if beyond.contains(where: { $0 != .digitZero }) { milliseconds += 1 }
            return milliseconds
        }

        /// The zone's offset east of UTC in seconds: `Z`, or a sign with `HH`, `HHMM` or `HH:MM`.
        mutating func zoneOffsetSeconds() -> Int? {
            if skip("Z") || skip("z") { return 0 }
            let sign: Int
            if skip("+") {
                sign = 1
            } else if skip("-") {
                sign = -1
            } else {
                return nil
            }
            guard let hours = number(digits: 2), hours < 24 else { return nil }
            var minutes = 0
            if skip(":") {
                guard let value = number(digits: 2) else { return nil }
                minutes = value
            } else if !isAtEnd {
                guard let value = number(digits: 2) else { return nil }
                minutes = value
            }
            guard minutes < 60 else { return nil }
            return sign * (hours * 3_600 + minutes * 60)
        }
    }
}
