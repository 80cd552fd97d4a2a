import APNsCore
import CivilTime

/// A Swift `Date` as ActivityKit decodes it (`JSONDecoder`'s default strategy): a number of seconds since
/// 2001-01-01T00:00:00Z, Apple's reference date. Unix time sent there shows a date about 31 years late,
/// so the gateway converts ISO 8601 text and refuses numbers that only make sense as Unix time.
enum AppleDate {
    /// 2001-01-01T00:00:00Z in Unix time.
    static let referenceDate: Int64 = 978_307_200
    /// 2040-01-01T00:00:00Z in reference seconds: a later number is far more likely Unix time (which
    /// passed that value at the end of 2008) than a date so far ahead.
    static let latestReferenceSeconds: Double = 1_230_681_600
    /// What a mismatch says an `apple-date` member needs.
    static let expected = "a Swift Date (seconds since 2001-01-01)"
    /// What it says for text that is not ISO 8601.
    static let expectedForText = "an ISO 8601 date-time (2026-01-01T10:00:00Z) or seconds since 2001-01-01"

    /// Unix time beyond this reads as milliseconds: as seconds it would be past the year 5000.
    private static let millisecondsFrom: Double = 100_000_000_000
    /// 9999-12-31T23:59:59Z, the last instant ISO 8601 text writes with four digits.
    private static let latestUnixSeconds: Double = 253_402_300_799

    /// The reference seconds for ISO 8601 text (`2026-01-01T10:00:00Z`, `2026-01-01T12:00:00.25+02:00`),
    /// as a JSON number lexeme without exponent that keeps every fraction digit given, or nil for text in
    /// any other form. The forms are ``ISO8601Timestamp``'s.
    static func referenceSeconds(iso8601 text: String) -> String? {
        let bytes = Array(text.utf8)
        // `YYYY-MM-DDTHH:MM:SS` is 19 bytes; ISO8601Timestamp reads whole seconds, so the fraction is split off.
        var whole = bytes
        var fraction: ArraySlice<UInt8> = []
        if bytes.count > 20, bytes[19] == UInt8(ascii: ".") {
            let end = bytes[20...].firstIndex { !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? bytes.count
            // ISO8601Timestamp would take a second fraction after the first.
            guard end > 20, end == bytes.count || bytes[end] != UInt8(ascii: ".") else { return nil }
            fraction = bytes[20..<end]
            whole = Array(bytes[..<19] + bytes[end...])
        }
        guard let unix = ISO8601Timestamp.epochSeconds(from: String(decoding: whole, as: UTF8.self)) else { return nil }
        while fraction.last == UInt8(ascii: "0") { fraction.removeLast() }
        return lexeme(seconds: unix - referenceDate, fraction: fraction)
    }

    /// `seconds` (whole, toward minus infinity) plus `0.fraction` as decimal text: before the reference
    /// date the fraction counts back up, so -1 and `.25` are `-0.75`.
    private static func lexeme(seconds: Int64, fraction: ArraySlice<UInt8>) -> String {
        guard !fraction.isEmpty else { return String(seconds) }
        guard seconds < 0 else { return String(seconds) + "." + String(decoding: fraction, as: UTF8.self) }
        // -(|seconds| - 1 + (1 - 0.fraction)): the complement of the fraction, digit by digit.
        var complement = [UInt8](repeating: 0, count: fraction.count)
        var borrow: UInt8 = 0
        for (offset, digit) in fraction.enumerated().reversed() {
            let value = digit - UInt8(ascii: "0") + borrow
            complement[offset] = UInt8(ascii: "0") + (value == 0 ? 0 : 10 - value)
            borrow = value == 0 ? 0 : 1
        }
        while complement.last == UInt8(ascii: "0") { complement.removeLast() }
        return "-" + String(-seconds - 1) + "." + String(decoding: complement, as: UTF8.self)
    }

    /// What came, for a number past 2040: read as Unix time (in milliseconds when that is plausible), with
    /// the reference seconds and ISO 8601 text to send instead.
    static func unixTimeExplanation(_ lexeme: String, value: Double) -> String {
        let given = PayloadValueText.shortened(lexeme)
        let milliseconds = value >= millisecondsFrom
        let unixMilliseconds = milliseconds ? value.rounded() : (value * 1000).rounded()
        guard unixMilliseconds <= latestUnixSeconds * 1000 else {
            return "\(given), later than 2040-01-01T00:00:00Z: a Swift Date counts seconds since 2001-01-01"
        }
        let instant = Int64(unixMilliseconds)
        let wholeSeconds = instant % 1000 == 0
        let iso = UTCTimestamp.iso8601(wholeSeconds ? instant / 1000 : instant, unitsPerSecond: wholeSeconds ? 1 : 1000)
        let reference = instant - referenceDate * 1000
        let send = wholeSeconds ? String(reference / 1000) : decimal(milliseconds: reference)
        let unit = milliseconds ? "Unix time in milliseconds" : "Unix time"
        return "\(given), which is \(unit) for \(iso): send \(send) or \"\(iso)\""
    }

    /// Positive milliseconds as seconds with up to three fraction digits: `788918400.5`.
    private static func decimal(milliseconds: Int64) -> String {
        var fraction = String(milliseconds % 1000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return String(milliseconds / 1000) + "." + fraction
    }
}
