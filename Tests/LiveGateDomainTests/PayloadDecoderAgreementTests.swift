import APNsCore
import Foundation
import LiveGateDomain
import Testing

/// The check against Foundation's own `JSONDecoder` on this machine: a schema passes a value exactly when
/// the decoder decodes it into the Swift type the schema describes.
@Suite("A payload check agrees with JSONDecoder")
struct PayloadDecoderAgreementTests {
    static func decodes<T: Decodable>(_ type: T.Type, _ value: JSONValue) -> T? {
        try? JSONDecoder().decode(type, from: Data(value.serialized()))
    }

    // MARK: Numbers

    static let integer = try! PayloadSchema(parsing: .object(["type": .string("integer")]), at: "s")
    static let number = try! PayloadSchema(parsing: .object(["type": .string("number")]), at: "s")
    static let date = try! PayloadSchema(parsing: .object(["type": .string("number"), "format": .string("apple-date")]), at: "s")

    static let lexemes: [String] = [
        "0", "-0", "0.0", "-0.0", "0e5", "0E5", "-0e5", "0e+5", "0e0", "0.0e1", "0.00e5", "0.000e5", "0e-400", "0e15", "1", "-1", "1.0",
        "1e2", "1E2", "1e+2", "1E+2", "1.5", "-1.5", "0.1",
        "1e-2", "10e-1", "100e-2", "0.1e1", "123.456e1", "2.5e0", "1.00000000000000000001", "1e-400", "4.9e-324",
        "2.2250738585072014e-308", "9007199254740992", "9007199254740993", "9007199254740993.0", "9007199254740993.5",
        "-9007199254740993.5", "9.007199254740993e15", "1e16", "-1e16", "1e18", "9.2e18", "9.3e18", "1e19",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "9.223372036854775807e18", "9223372036854775807.0", "9223372036854775806.5", "9223372036854775295.0",
        "9223372036854775295.9", "9223372036854775296.0", "9223372036854775807e0", "-9223372036854775295.5",
        "-9223372036854775807.0", "-9223372036854775808.0", "12345678901234567890", "-12345678901234567890",
        "12345678901234567890123", "18446744073709551615e-3", "18446744073709551616e-3", "184467440737095516150e-4",
        "10000000000000000000e-3", "123456789012345678901234567890123456789e-22",
        "340282366920938463463374607431768211455e-23", "340282366920938463463374607431768211456e-23",
        "3402823669209384634633746074317682114550e-24", "90071992547409930000000000000000000000000000e-28",
        "9007199254740993000000000000000000000000000000000e-33",
        "9007199254740993.000000000000000000000000000000000000001",
        "9007199254740992.99999999999999999999999999999999999999999",
        "1.0000000000000000000000000000000000000000000001e16", "0.00000000000000000000000000000000000000000000000000001e69",
        "1e308", "1.7976931348623157e308", "1.7976931348623159e308", "1e309", "-1e309", "1e400",
    ]

    /// Integers from 2^53 up written with fractions and exponents, where Foundation reads a `Decimal`.
    static let generated: [String] = {
        let digits = [
            "9007199254740993", "9223372036854775295", "9223372036854775296", "4611686018427387904", "18446744073709551615",
            "12345678901234567", "123456789012345678901234567", "90000000000000000005",
        ]
        var lexemes: [String] = []
        for number in digits {
            for point in 1..<number.count {
                let split = number.index(number.startIndex, offsetBy: point)
                let written = number[..<split] + "." + number[split...]
                lexemes.append(written + "e\(number.count - point)")
                lexemes.append("-" + written + "e\(number.count - point)")
            }
            for shift in -4...4 {
                lexemes.append(number + "e\(shift)")
                lexemes.append(number + ".0e\(shift)")
                lexemes.append(number + ".5e\(shift)")
                lexemes.append(number + "000e\(shift - 3)")
            }
        }
        return lexemes
    }()

    @Test(arguments: lexemes + generated)
    func numbersDecodeAsInt(lexeme: String) {
        let foundation = Self.decodes([Int].self, .array([.number(lexeme)])) != nil
        #expect(Self.integer.check(.number(lexeme), at: "$").isDecodable == foundation)
    }

    @Test(arguments: lexemes)
    func numbersDecodeAsDouble(lexeme: String) {
        let foundation = Self.decodes([Double].self, .array([.number(lexeme)])) != nil
        #expect(Self.number.check(.number(lexeme), at: "$").isDecodable == foundation)
    }

    @Test(arguments: lexemes)
    func numbersDecodeAsDateUntil2040(lexeme: String) throws {
        let foundation = Self.decodes([Date].self, .array([.number(lexeme)]))
        let check = Self.date.check(.number(lexeme), at: "$")
        if let date = foundation?.first, date.timeIntervalSinceReferenceDate > 1_230_681_600 {
            #expect(!check.isDecodable, "decodable, but as a date after 2040")
        } else {
            #expect(check.isDecodable == (foundation != nil))
        }
    }

    /// Texts Foundation stops the app on (or refuses): the `Decimal` exponent overflows. Not given to the
    /// real decoder here for that reason.
    @Test(arguments: [
        "1" + String(repeating: "0", count: 200) + "e-184",
        "1" + String(repeating: "0", count: 200) + ".5e-184",
        "0." + String(repeating: "0", count: 130) + "9007199254740993e147",
    ])
    func decimalExponentOverflowIsRefused(lexeme: String) {
        #expect(!Self.integer.check(.number(lexeme), at: "$").isDecodable)
    }

    // MARK: A Codable type

    struct DeliveryState: Decodable {
        enum Phase: String, Decodable {
            case preparing
            case onTheWay = "on_the_way"
            case delivered
        }

        struct Leg: Decodable {
            var stop: String
            var eta: Date
            var delayMinutes: Int?
        }

        /// A member that must be there but may be null, as a hand-written decoder says.
        struct Remark: Decodable {
            var note: String?

            enum CodingKeys: CodingKey {
                case note
            }

            init(from decoder: any Decoder) throws {
                note = try decoder.container(keyedBy: CodingKeys.self).decode(String?.self, forKey: .note)
            }
        }

        var phase: Phase
        var progress: Double
        var eta: Date
        var courier: String?
        var lastSeen: Date?
        var legs: [Leg]
        var counts: [String: Int]
        var isLate: Bool
        var rating: Int?
        var remark: Remark
    }

    static let deliverySchema = try! PayloadSchema(
        parsing: JSONValue.parse(
            #"""
            {"type":"object",
             "properties":{
               "phase":{"type":"string","enum":["preparing","on_the_way","delivered"]},
               "progress":{"type":"number"},
               "eta":{"type":"number","format":"apple-date"},
               "courier":{"type":"string"},
               "lastSeen":{"type":"number","format":"apple-date"},
               "legs":{"type":"array","items":{"type":"object",
                 "properties":{"stop":{"type":"string"},"eta":{"type":"number","format":"apple-date"},
                               "delayMinutes":{"type":"integer"}},
                 "required":["stop","eta"]}},
               "counts":{"type":"object","additionalProperties":{"type":"integer"}},
               "isLate":{"type":"boolean"},
               "rating":{"type":"integer"},
               "remark":{"type":"object","properties":{"note":{"type":["string","null"]}},"required":["note"]}
             },
             "required":["phase","progress","eta","legs","counts","isLate","remark"]}
            """#),
        at: "content_state")

    static let deliveryText = #"""
        {"phase":"on_the_way","progress":0.5,"eta":"2026-01-01T10:00:00.123456Z","legs":[{"stop":"Depot","eta":788954400}],
         "counts":{"parcels":2},"isLate":false,"remark":{"note":null}}
        """#

    /// `delivery` with members replaced or added (JSON text), or removed (nil).
    static func delivery(_ members: KeyValuePairs<String, String?>) throws -> JSONValue {
        guard case .object(var object) = try JSONValue.parse(deliveryText) else { return .null }
        for (key, text) in members {
            if let text { object.set(key, try JSONValue.parse(text)) } else { object.remove(key) }
        }
        return .object(object)
    }

    @Test(
        arguments: [
            [:], ["phase": #""delivered""#], ["phase": #""lost""#], ["phase": "null"], ["phase": nil], ["phase": "1"],
            ["progress": "1"], ["progress": "1.0e0"], ["progress": #""0.5""#], ["progress": "null"], ["progress": nil],
            ["progress": "1e400"], ["progress": "1e-400"], ["progress": "-0"],
            ["eta": "788918400"], ["eta": "-1.5"], ["eta": #""2026-01-01T12:00:00+02:00""#], ["eta": #""2026-01-01""#],
            ["eta": #""soon""#], ["eta": "true"], ["eta": "null"], ["eta": nil],
            ["courier": #""Sam""#], ["courier": "null"], ["courier": "5"], ["courier": nil],
            ["lastSeen": "null"], ["lastSeen": #""2025-12-31T23:59:59Z""#], ["lastSeen": #""yesterday""#], ["lastSeen": "[]"],
            ["legs": "[]"], ["legs": "{}"], ["legs": "null"], ["legs": "[null]"], ["legs": #"[{"stop":"A"}]"#],
            ["legs": #"[{"stop":"A","eta":"2026-01-01T10:00:00Z","delayMinutes":null}]"#],
            ["legs": #"[{"stop":"A","eta":1,"delayMinutes":5.0},{"stop":"B","eta":2,"delayMinutes":"5"}]"#],
            ["legs": #"[{"stop":"A","eta":1,"delayMinutes":1e2,"extra":[1]}]"#],
            ["counts": "{}"], ["counts": #"{"a":1,"b":-2,"c":1e2}"#], ["counts": #"{"a":"1"}"#], ["counts": #"{"a":null}"#],
            ["counts": #"{"a":1.5}"#], ["counts": "[]"],
            ["isLate": "true"], ["isLate": "0"], ["isLate": #""false""#], ["isLate": "null"],
            ["rating": "5"], ["rating": "1.0"], ["rating": "1e2"], ["rating": "-0"], ["rating": "1.5"], ["rating": "null"],
            ["rating": "9223372036854775807"], ["rating": "9223372036854775808"], ["rating": "1e19"], ["rating": "1e-400"],
            ["rating": #""1""#], ["rating": "true"],
            ["remark": #"{"note":"hi"}"#], ["remark": "{}"], ["remark": #"{"note":1}"#], ["remark": "null"],
            ["unknown": #"{"anything":[null]}"#],
        ] as [KeyValuePairs<String, String?>])
    func aDeliveryStatePassesExactlyWhenItDecodes(members: KeyValuePairs<String, String?>) throws {
        let check = Self.deliverySchema.check(try Self.delivery(members), at: "$.content_state")
        let decoded = Self.decodes(DeliveryState.self, check.value)
        #expect(check.isDecodable == (decoded != nil), "\(check.mismatches)")
    }

    @Test func wholeValuesOfTheWrongKindDecodeNeither() throws {
        for value in [JSONValue.null, .array([]), .string("{}")] {
            #expect(!Self.deliverySchema.check(value, at: "$.content_state").isDecodable)
            #expect(Self.decodes(DeliveryState.self, value) == nil)
        }
    }

    @Test(
        arguments: [
            (#""2026-01-01T10:00:00Z""#, 788_954_400),
            (#""2026-01-01T10:00:00.123456Z""#, 788_954_400.123456),
            (#""2026-01-01T10:00:00.1Z""#, 788_954_400.1),
            (#""2026-01-01T12:00:00.987654321+02:00""#, 788_954_400.987654321),
            (#""2000-12-31T23:59:59.25Z""#, -0.75),
            (#""1999-06-15T08:30:00.5-07:00""#, -48_846_599.5),
            ("788918400.25", 788_918_400.25),
            ("-1.5", -1.5),
        ] as [(String, Double)])
    func aDateDecodesAsTheInstantMeant(eta: String, seconds: Double) throws {
        let check = Self.deliverySchema.check(try Self.delivery(["eta": eta]), at: "$.content_state")
        let decoded = try #require(Self.decodes(DeliveryState.self, check.value))
        #expect(decoded.eta == Date(timeIntervalSinceReferenceDate: seconds))
    }

    @Test(arguments: ["2026-01-01T10:00:00Z", "2026-01-01T12:00:00+02:00", "2000-12-31T23:59:59Z", "1969-07-20T20:17:40Z"])
    func aWholeSecondDateIsFoundationsOwnReading(text: String) throws {
        let check = Self.deliverySchema.check(try Self.delivery(["eta": "\"\(text)\""]), at: "$.content_state")
        let decoded = try #require(Self.decodes(DeliveryState.self, check.value))
        #expect(decoded.eta == (try Date(text, strategy: .iso8601)))
    }

    /// Where the check refuses what this decoder would take, on purpose.
    @Test func refusedThoughThisDecoderTakesIt() throws {
        let unix = try Self.delivery(["eta": "1767225600"])
        #expect(!Self.deliverySchema.check(unix, at: "$.content_state").isDecodable)
        #expect(Self.decodes(DeliveryState.self, unix) != nil, "it decodes, as a date in 2057")
        // Foundation here reads a repeated key's first occurrence, older ones the last: both must decode.
        var repeated = try JSONValue.parse(Self.deliveryText).objectValue ?? [:]
        repeated.members.append(JSONObject.Member(key: "isLate", value: .string("no")))
        let check = Self.deliverySchema.check(.object(repeated), at: "$.content_state")
        #expect(!check.isDecodable)
        #expect(Self.decodes(DeliveryState.self, check.value) != nil)
    }
}
