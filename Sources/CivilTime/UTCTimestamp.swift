/// Writes instants as UTC text by hand: `String(format:)` and Foundation's date formatters go through
/// locale-aware machinery and are the slow part of writing many rows or log lines.
public enum UTCTimestamp {
    /// ISO 8601 in UTC: `2026-11-23T20:23:35Z` for whole seconds; with `unitsPerSecond` 1_000 or
    /// 1_000_000, `value` counts milliseconds or microseconds and they are written out
    /// (`2026-11-23T20:23:35.123456Z`).
    public static func iso8601(_ value: Int64, unitsPerSecond: Int64 = 1) -> String {
        format(value, unitsPerSecond: unitsPerSecond, separator: UInt8(ascii: "T"), zone: "Z")
    }

    /// `value` units of `1 / unitsPerSecond` seconds since 1970-01-01T00:00:00Z as
    /// `YYYY-MM-DD<separator>HH:MM:SS[.fraction]<zone>`, with as many fraction digits as `unitsPerSecond`
    /// has zeros (a power of ten). Years past 9999 take more digits; years before 0 a leading `-`.
    public static func format(_ value: Int64, unitsPerSecond: Int64, separator: UInt8, zone: String) -> String {
        let fractionDigits = decimalZeros(of: unitsPerSecond)
        let seconds = value.floorDivided(by: unitsPerSecond)
        let fraction = value - seconds * unitsPerSecond
        let days = seconds.floorDivided(by: 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        let date = CivilCalendar.date(daysSinceEpoch: Int(days))
        let capacity = 48 + zone.utf8.count
        return String(unsafeUninitializedCapacity: capacity) { buffer in
            var writer = DigitWriter(buffer: buffer)
            if date.year < 0 { writer.append(UInt8(ascii: "-")) }
            writer.append(date.year.magnitude, digits: 4)
            writer.append(UInt8(ascii: "-"))
            writer.append(UInt(date.month), digits: 2)
            writer.append(UInt8(ascii: "-"))
            writer.append(UInt(date.day), digits: 2)
            writer.append(separator)
            writer.append(UInt(secondOfDay / 3600), digits: 2)
            writer.append(UInt8(ascii: ":"))
            writer.append(UInt(secondOfDay / 60 % 60), digits: 2)
            writer.append(UInt8(ascii: ":"))
            writer.append(UInt(secondOfDay % 60), digits: 2)
            if fractionDigits > 0 {
                writer.append(UInt8(ascii: "."))
                writer.append(UInt(fraction), digits: fractionDigits)
            }
            for byte in zone.utf8 { writer.append(byte) }
            return writer.count
        }
    }

    /// 0 for 1, 3 for 1_000, 6 for 1_000_000.
    private static func decimalZeros(of unitsPerSecond: Int64) -> Int {
        var zeros = 0
        var rest = unitsPerSecond
        while rest >= 10, rest % 10 == 0 {
            rest /= 10
            zeros += 1
        }
        precondition(rest == 1, "unitsPerSecond must be a power of ten, not \(unitsPerSecond)")
        return zeros
    }
}

/// Fills a byte buffer left to right; numbers are zero-padded to a minimum width.
private struct DigitWriter {
    let buffer: UnsafeMutableBufferPointer<UInt8>
    var count = 0

    init(buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    mutating func append(_ byte: UInt8) {
        buffer[count] = byte
        count += 1
    }

    mutating func append(_ value: UInt, digits minimum: Int) {
        var width = 1
        var limit: UInt = 10
        while width < 20, value >= limit {
            width += 1
            limit = limit &* 10
        }
        width = max(width, minimum)
        var rest = value
        for index in stride(from: count + width - 1, through: count, by: -1) {
            buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        count += width
    }
}
