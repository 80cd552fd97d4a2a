import CivilTime
import Foundation
import Testing

@Suite("UTC timestamp text")
struct UTCTimestampTests {
    @Test(
        arguments: [
            (0, 1, "1970-01-01T00:00:00Z"),
            (-1, 1, "1969-12-31T23:59:59Z"),
            (1_795_465_415, 1, "2026-11-23T20:23:35Z"),
            (951_825_599, 1, "2000-02-29T11:59:59Z"),
            (253_402_300_799, 1, "9999-12-31T23:59:59Z"),
            (253_402_300_800, 1, "10000-01-01T00:00:00Z"),
            (-62_167_219_200, 1, "0000-01-01T00:00:00Z"),
            (-62_167_219_201, 1, "-0001-12-31T23:59:59Z"),
            (1_795_465_415_007, 1_000, "2026-11-23T20:23:35.007Z"),
            (1_795_465_415_000_042, 1_000_000, "2026-11-23T20:23:35.000042Z"),
            (-1, 1_000_000, "1969-12-31T23:59:59.999999Z"),
            (-1_500_000, 1_000_000, "1969-12-31T23:59:58.500000Z"),
        ] as [(Int64, Int64, String)])
    func iso8601(value: Int64, unitsPerSecond: Int64, text: String) {
        #expect(UTCTimestamp.iso8601(value, unitsPerSecond: unitsPerSecond) == text)
    }

    @Test func otherSeparatorsAndZones() {
        #expect(
            UTCTimestamp.format(1_795_465_415_123_456, unitsPerSecond: 1_000_000, separator: UInt8(ascii: " "), zone: "+00")
                == "2026-11-23 20:23:35.123456+00")
    }

    /// Whole seconds are what Foundation's formatter writes, across leap years and centuries.
    @Test func wholeSecondsMatchFoundationsFormatter() {
        let formatter = ISO8601DateFormatter()
        var generator = SystemRandomNumberGenerator()
        // 1900-01-01 to 9999-12-31, plus the edges of 2000, 2100 and 2400's leap days.
        var samples: [Int64] = (0..<5_000).map { _ in Int64.random(in: -2_208_988_800...253_402_300_799, using: &generator) }
        for (year, month, day) in [(2000, 2, 29), (2000, 3, 1), (2100, 2, 28), (2100, 3, 1), (2400, 2, 29), (2400, 3, 1)] {
            let midnight = Int64(CivilCalendar.daysSinceEpoch(year: year, month: month, day: day)) * 86_400
            samples += [midnight - 1, midnight, midnight + 86_399]
        }
        for seconds in samples {
            let expected = formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
            #expect(UTCTimestamp.iso8601(seconds) == expected, "\(seconds)")
        }
    }
}
