import APNsCore
import LiveGateDomain
import Testing

/// `"format": "apple-date"`: ISO 8601 text converted to seconds since 2001-01-01, numbers taken as such
/// unless they only make sense as Unix time.
@Suite("An apple-date")
struct AppleDateTests {
    static let schema = try! PayloadSchema(
        parsing: JSONValue.parse(
            #"{"type":"object","properties":{"eta":{"type":"number","format":"apple-date"},"#
                + #""ends":{"type":["number","null"],"format":"apple-date"}}}"#),
        at: "content_state")

    static func check(_ eta: String) throws -> PayloadCheck {
        schema.check(.object(["eta": try JSONValue.parse(eta)]), at: "$.content_state")
    }

    /// The lexeme the check puts in place of `eta`.
    static func converted(_ eta: String) throws -> String? {
        let check = try check(eta)
        #expect(check.mismatches.isEmpty)
        return check.value["eta"]?.numberLexeme
    }

    @Test(arguments: [
        (#""2026-01-01T00:00:00Z""#, "788918400"),
        (#""2026-01-01T10:00:00Z""#, "788954400"),
        (#""2026-01-01T10:00:00.5Z""#, "788954400.5"),
        (#""2026-01-01T10:00:00.123456789Z""#, "788954400.123456789"),
        (#""2026-01-01T10:00:00.250000Z""#, "788954400.25"),
        (#""2026-01-01T10:00:00.000Z""#, "788954400"),
        (#""2026-01-01T12:00:00+02:00""#, "788954400"),
        (#""2026-01-01T12:00:00.75+02:00""#, "788954400.75"),
        (#""2026-01-01T04:30:00-0530""#, "788954400"),
        (#""2026-01-01t10:00:00z""#, "788954400"),
        (#""2001-01-01T00:00:00Z""#, "0"),
        (#""2000-12-31T23:59:59Z""#, "-1"),
        (#""2000-12-31T23:59:59.25Z""#, "-0.75"),
        (#""2000-12-31T23:59:58.05Z""#, "-1.95"),
        (#""2000-12-31T23:59:59.999Z""#, "-0.001"),
        (#""1970-01-01T00:00:00Z""#, "-978307200"),
        (#""2050-06-01T00:00:00Z""#, "1559347200"),
    ])
    func isoTextBecomesReferenceSeconds(text: String, seconds: String) throws {
        #expect(try Self.converted(text) == seconds)
    }

    @Test func onlyTheDateIsConverted() throws {
        let value = try JSONValue.parse(#"{"eta":"2026-01-01T00:00:00Z","other":1.50,"ends":null}"#)
        let check = Self.schema.check(value, at: "$.content_state")
        #expect(check.value == (try JSONValue.parse(#"{"eta":788918400,"other":1.50,"ends":null}"#)))
    }

    @Test(arguments: ["788918400", "788918400.123", "0", "-1.5", "-978307200", "1230681600", "1.2306816e9", "0e0"])
    func numbersAreReferenceSecondsAsGiven(seconds: String) throws {
        let check = try Self.check(seconds)
        #expect(check.mismatches.isEmpty)
        #expect(check.value["eta"] == .number(seconds))
    }

    @Test(arguments: [
        (
            "1767225600",
            #"1767225600, which is Unix time for 2026-01-01T00:00:00Z: send 788918400 or "2026-01-01T00:00:00Z""#
        ),
        (
            "1767225600.5",
            #"1767225600.5, which is Unix time for 2026-01-01T00:00:00.500Z: send 788918400.5 or "2026-01-01T00:00:00.500Z""#
        ),
        (
            "1230681601",
            #"1230681601, which is Unix time for 2008-12-31T00:00:01Z: send 252374401 or "2008-12-31T00:00:01Z""#
        ),
        (
            "1767225600000",
            #"1767225600000, which is Unix time in milliseconds for 2026-01-01T00:00:00Z: send 788918400 or "2026-01-01T00:00:00Z""#
        ),
        (
            "1767225600123",
            #"1767225600123, which is Unix time in milliseconds for 2026-01-01T00:00:00.123Z: send 788918400.123 or "2026-01-01T00:00:00.123Z""#
        ),
        ("1e300", "1e300, later than 2040-01-01T00:00:00Z: a Swift Date counts seconds since 2001-01-01"),
    ])
    func aNumberPast2040IsRefusedAsUnixTime(number: String, got: String) throws {
        let check = try Self.check(number)
        #expect(
            check.mismatches == [
                PayloadMismatch(path: "$.content_state.eta", expected: "a Swift Date (seconds since 2001-01-01)", got: got)
            ])
        #expect(check.value["eta"] == .number(number), "nothing is converted")
    }

    @Test func theMessageReadsAsOneLine() throws {
        #expect(
            try Self.check("1767225600").mismatches.map(\.description) == [
                #"$.content_state.eta: expected a Swift Date (seconds since 2001-01-01), got 1767225600, which is Unix time for 2026-01-01T00:00:00Z: send 788918400 or "2026-01-01T00:00:00Z""#
            ])
    }

    @Test(arguments: [
        #""2026-01-01""#, #""2026-01-01T10:00:00""#, #""2026-01-01 10:00:00Z""#, #""2026-01-01T10:00:00.Z""#,
        #""2026-02-30T10:00:00Z""#, #""2026-01-01T24:00:00Z""#, #""2026-01-01T10:00:00+24:00""#, #""tomorrow""#, #""""#,
        #""788918400""#, #""2026-01-01T10:00:00.5.5Z""#,
    ])
    func unreadableTextIsAMismatch(text: String) throws {
        let check = try Self.check(text)
        #expect(
            check.mismatches.map(\.expected) == ["an ISO 8601 date-time (2026-01-01T10:00:00Z) or seconds since 2001-01-01"])
        #expect(check.value["eta"] == (try JSONValue.parse(text)))
    }

    @Test func otherKindsAndNullAreMismatchesUnlessOptional() throws {
        #expect(
            try Self.check("true").mismatches.map(\.description) == [
                "$.content_state.eta: expected a Swift Date (seconds since 2001-01-01), got boolean true"
            ])
        let required = try PayloadSchema(parsing: JSONValue.parse(#"{"type":"number","format":"apple-date"}"#), at: "s")
        #expect(
            required.check(.null, at: "$.content_state.eta").mismatches.map(\.description) == [
                "$.content_state.eta: expected a Swift Date (seconds since 2001-01-01), got null"
            ])
        #expect(try Self.check("null").mismatches.isEmpty, "eta is not required: an Optional")
        #expect(
            try Self.check("1e400").mismatches.map(\.description) == [
                "$.content_state.eta: expected a Swift Date (seconds since 2001-01-01), got number 1e400"
            ])
        let ends = Self.schema.check(.object(["ends": .null]), at: "$.content_state")
        #expect(ends.mismatches.isEmpty)
        let wrong = Self.schema.check(.object(["ends": .bool(true)]), at: "$.content_state")
        #expect(
            wrong.mismatches.map(\.description) == [
                "$.content_state.ends: expected a Swift Date (seconds since 2001-01-01) or null, got boolean true"
            ])
    }
}
