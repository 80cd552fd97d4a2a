import Foundation
import LiveGateKit
import Testing

/// A delivery tracker's Live Activity, as an app would declare it (without ActivityKit: the derivation
/// takes any Encodable).
struct DeliveryTracker: Codable {
    struct ContentState: Codable, Hashable {
        enum Status: String, Codable, Hashable, CaseIterable {
            case preparing
            case onTheWay = "on_the_way"
            case delivered
        }

        /// Not CaseIterable: only its raw type is known.
        enum Priority: Int, Codable, Hashable {
            case low = 1
            case normal = 5
            case urgent = 10
        }

        struct Location: Codable, Hashable {
            var latitude: Double
            var longitude: Double
        }

        struct Stop: Codable, Hashable {
            var name: String
            var arrival: Date
            var done: Bool
            var note: String?
        }

        var status: Status
        var priority: Priority
        var eta: Date
        var driverName: String?
        var driverLocation: Location
        var stops: [Stop]
        var scores: [String: Int]
        var itemsLeft: UInt8
        var progress: Double
    }

    var orderNumber: String
    var orderID: UUID
    var trackingURL: URL
    var brazeActivityId: String?
}

/// The same JSON text, whatever its key order and spacing.
func canonical(_ json: String) throws -> String {
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
    return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
}

func canonical(_ schema: PayloadSchema) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return try canonical(String(decoding: try encoder.encode(schema), as: UTF8.self))
}

@Suite("PayloadSchema derives what the app decodes from its own Codable types")
struct PayloadSchemaDerivationTests {
    static let eta = Date(timeIntervalSinceReferenceDate: 817_000_000)

    static let state = DeliveryTracker.ContentState(
        status: .onTheWay, priority: .urgent, eta: eta, driverName: "Sam", driverLocation: .init(latitude: 48.85, longitude: 2.35),
        stops: [.init(name: "Bakery", arrival: eta, done: true, note: "ring twice")], scores: ["speed": 5, "care": 4], itemsLeft: 2,
        progress: 0.4)

    @Test func aDeliveryTrackersContentStateIsDescribedExactly() throws {
        let expected = """
            {
              "type": "object",
              "properties": {
                "status": {"type": "string", "enum": ["preparing", "on_the_way", "delivered"]},
                "priority": {"type": "integer"},
                "eta": {"type": "number", "format": "apple-date"},
                "driverName": {"type": "string"},
                "driverLocation": {
                  "type": "object",
                  "properties": {"latitude": {"type": "number"}, "longitude": {"type": "number"}},
                  "required": ["latitude", "longitude"]
                },
                "stops": {
                  "type": "array",
                  "items": {
                    "type": "object",
                    "properties": {
                      "name": {"type": "string"},
                      "arrival": {"type": "number", "format": "apple-date"},
                      "done": {"type": "boolean"},
                      "note": {"type": "string"}
                    },
                    "required": ["arrival", "done", "name"]
                  }
                },
                "scores": {"type": "object", "additionalProperties": {"type": "integer"}},
                "itemsLeft": {"type": "integer"},
                "progress": {"type": "number"}
              },
              "required": ["driverLocation", "eta", "itemsLeft", "priority", "progress", "scores", "status", "stops"]
            }
            """
        #expect(try canonical(PayloadSchema.derive(from: Self.state)) == canonical(expected))
    }

    @Test func theSchemaTextIsTheSameInEveryRunWithSortedKeys() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(PayloadSchema.derive(from: Self.state)), as: UTF8.self)
        #expect(
            text
                == #"{"properties":{"driverLocation":{"properties":{"latitude":{"type":"number"},"longitude":{"type":"number"}},"required":["latitude","longitude"],"type":"object"},"driverName":{"type":"string"},"eta":{"format":"apple-date","type":"number"},"itemsLeft":{"type":"integer"},"priority":{"type":"integer"},"progress":{"type":"number"},"scores":{"additionalProperties":{"type":"integer"},"type":"object"},"status":{"enum":["preparing","on_the_way","delivered"],"type":"string"},"stops":{"items":{"properties":{"arrival":{"format":"apple-date","type":"number"},"done":{"type":"boolean"},"name":{"type":"string"},"note":{"type":"string"}},"required":["arrival","done","name"],"type":"object"},"type":"array"}},"required":["driverLocation","eta","itemsLeft","priority","progress","scores","status","stops"],"type":"object"}"#
        )
        // A dictionary's order changes from run to run; its schema does not follow it.
        var reordered = Self.state
        reordered.scores = ["care": 4, "speed": 5, "zeal": 3]
        #expect(try PayloadSchema.derive(from: reordered) == PayloadSchema.derive(from: Self.state))
    }

    @Test func attributesWithURLAndUUIDAreStrings() throws {
        let attributes = DeliveryTracker(
            orderNumber: "A-1042", orderID: UUID(), trackingURL: URL(string: "https://example.com/track/A-1042")!,
            brazeActivityId: "order-1042")
        let expected = """
            {"type": "object",
             "properties": {"orderNumber": {"type": "string"}, "orderID": {"type": "string"}, "trackingURL": {"type": "string"},
                            "brazeActivityId": {"type": "string"}},
             "required": ["orderID", "orderNumber", "trackingURL"]}
            """
        #expect(try canonical(PayloadSchema.derive(from: attributes)) == canonical(expected))
    }

    @Test func aNilOptionalIsLeftOutOfRequiredAndDescribedFromItsTypeWhereThatIsEnough() throws {
        struct State: Codable {
            var driverName: String?
            var eta: Date?
            var status: DeliveryTracker.ContentState.Status?
            var location: DeliveryTracker.ContentState.Location?
            var stops: [DeliveryTracker.ContentState.Stop]?
            var counts: [String: Int]?
            var step: Int
        }
        let empty = State(step: 1)
        let expected = """
            {"type": "object",
             "properties": {
               "driverName": {"type": "string"},
               "eta": {"type": "number", "format": "apple-date"},
               "status": {"type": "string", "enum": ["preparing", "on_the_way", "delivered"]},
               "location": {},
               "stops": {"type": "array", "items": {}},
               "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
               "step": {"type": "integer"}
             },
             "required": ["step"]}
            """
        #expect(try canonical(PayloadSchema.derive(from: empty)) == canonical(expected))

        // Set, the same properties are described in full, and still not required.
        let set = State(
            driverName: "Sam", eta: Self.eta, status: .delivered, location: .init(latitude: 1, longitude: 2), stops: Self.state.stops,
            counts: ["a": 1], step: 1)
        let derived = try PayloadSchema.derive(from: set)
        #expect(derived.required == ["step"])
        #expect(
            try derived.properties?["location"]
                == PayloadSchema.derive(from: DeliveryTracker.ContentState.Location(latitude: 1, longitude: 2)))
        #expect(try derived.properties?["stops"] == PayloadSchema.derive(from: Self.state).properties?["stops"])
    }

    @Test func anOptionalMetAsAValueAlsoTakesNull() throws {
        struct Readings: Codable {
            var temperatures: [Double?]
            var labels: [String?]
            var stages: [DeliveryTracker.ContentState.Status?]
        }
        let expected = """
            {"type": "object",
             "properties": {
               "temperatures": {"type": "array", "items": {"type": ["number", "null"]}},
               "labels": {"type": "array", "items": {"type": ["string", "null"]}},
               "stages": {"type": "array", "items": {"type": ["string", "null"], "enum": ["preparing", "on_the_way", "delivered", null]}}
             },
             "required": ["labels", "stages", "temperatures"]}
            """
        #expect(
            try canonical(PayloadSchema.derive(from: Readings(temperatures: [21.5, nil], labels: [nil, "b"], stages: [.preparing])))
                == canonical(expected))
    }

    @Test func emptyArraysAndDictionariesAreDescribedFromTheirElementType() throws {
        struct State: Codable {
            var stops: [DeliveryTracker.ContentState.Stop]
            var counts: [Int]
            var scores: [String: Int]
            var byStop: [String: DeliveryTracker.ContentState.Stop]
        }
        let expected = """
            {"type": "object",
             "properties": {
               "stops": {"type": "array", "items": {}},
               "counts": {"type": "array", "items": {"type": "integer"}},
               "scores": {"type": "object", "additionalProperties": {"type": "integer"}},
               "byStop": {"type": "object", "additionalProperties": {}}
             },
             "required": ["byStop", "counts", "scores", "stops"]}
            """
        #expect(try canonical(PayloadSchema.derive(from: State(stops: [], counts: [], scores: [:], byStop: [:]))) == canonical(expected))
    }

    @Test func anIntEnumIsAnIntegerAndListsItsValuesWhenCaseIterable() throws {
        enum Leg: Int, Codable, CaseIterable {
            case pickup = 1
            case transit = 2
            case dropOff = 3
        }
        struct State: Codable {
            var leg: Leg
            var priority: DeliveryTracker.ContentState.Priority
        }
        let expected = """
            {"type": "object",
             "properties": {"leg": {"type": "integer", "enum": [1, 2, 3]}, "priority": {"type": "integer"}},
             "required": ["leg", "priority"]}
            """
        #expect(try canonical(PayloadSchema.derive(from: State(leg: .transit, priority: .normal))) == canonical(expected))
    }

    @Test func aCustomEncodingIsFollowedAsItEncodes() throws {
        /// Encodes cents as a decimal string, a status under a nested key, and an explicit null.
        struct Fare: Encodable {
            var cents: Int
            var paid: Bool

            enum CodingKeys: String, CodingKey { case amount, payment, refund }
            enum PaymentKeys: String, CodingKey { case paid, at }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(String(format: "%d.%02d", cents / 100, cents % 100), forKey: .amount)
                var payment = container.nestedContainer(keyedBy: PaymentKeys.self, forKey: .payment)
                try payment.encode(paid, forKey: .paid)
                try payment.encode(Date(timeIntervalSinceReferenceDate: 0), forKey: .at)
                try container.encodeNil(forKey: .refund)
            }
        }
        let expected = """
            {"type": "object",
             "properties": {
               "amount": {"type": "string"},
               "payment": {"type": "object",
                           "properties": {"paid": {"type": "boolean"}, "at": {"type": "number", "format": "apple-date"}},
                           "required": ["at", "paid"]},
               "refund": {"type": "null"}
             },
             "required": ["amount", "payment", "refund"]}
            """
        #expect(try canonical(PayloadSchema.derive(from: Fare(cents: 1250, paid: true))) == canonical(expected))
    }

    @Test func aWrapperThatEncodesItsValueIsThatValue() throws {
        struct Minutes: Codable {
            var value: Int
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(value)
            }
        }
        struct State: Codable { var remaining: Minutes }
        #expect(
            try PayloadSchema.derive(from: State(remaining: Minutes(value: 12)))
                == .object(properties: ["remaining": .integer], required: ["remaining"]))
    }

    @Test func whatCannotBeDescribedIsAnErrorNamingItsPath() throws {
        enum Leg: Codable {
            case walking(minutes: Int)
            case driving(plate: String)
        }
        struct Step: Codable { var leg: Leg }
        struct Route: Codable { var steps: [Step] }
        let enumError = try #require(throws: PayloadSchemaError.self) {
            try PayloadSchema.derive(from: Route(steps: [Step(leg: .walking(minutes: 3))]))
        }
        #expect(enumError.path == "steps[0].leg")
        #expect(enumError.description.contains("raw values"), "\(enumError)")

        struct ByID: Codable { var seats: [UUID: Int] }
        let dictionaryError = try #require(throws: PayloadSchemaError.self) {
            try PayloadSchema.derive(from: ByID(seats: [UUID(): 1]))
        }
        #expect(dictionaryError.path == "seats")
        #expect(dictionaryError.description.contains("key it by String"), "\(dictionaryError)")
    }

    @Test func aSchemaEncodesToTheSpecsJSONAndReadsBack() throws {
        let schema = PayloadSchema(
            type: [.object],
            properties: [
                "mode": .enumeration([.string("a"), .integer(2), .boolean(true), .null]),
                "maybe": PayloadSchema.string.orNull(),
                "when": .appleDate,
                "tags": .array(of: .string),
            ], required: ["when"], additionalProperties: .allowed(false))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(schema)
        #expect(
            String(decoding: data, as: UTF8.self)
                == #"{"additionalProperties":false,"properties":{"maybe":{"type":["string","null"]},"mode":{"enum":["a",2,true,null],"type":["string","integer","boolean","null"]},"tags":{"items":{"type":"string"},"type":"array"},"when":{"format":"apple-date","type":"number"}},"required":["when"],"type":"object"}"#
        )
        #expect(try JSONDecoder().decode(PayloadSchema.self, from: data) == schema)
        #expect(String(decoding: try encoder.encode(PayloadSchema.any), as: UTF8.self) == "{}")
    }

    @Test func theRegistrationBodyCarriesBothSchemasAndTheMode() throws {
        let attributes = DeliveryTracker(
            orderNumber: "A-1042", orderID: UUID(), trackingURL: URL(string: "https://example.com/t")!, brazeActivityId: nil)
        let body = try PayloadSchema.registration(
            appID: "3f0c5f55-0c8e-4c02-9a4d-4d1b0b7a1e11", attributes: attributes, contentState: Self.state, mode: .warn)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let attributesSchema = String(decoding: try encoder.encode(PayloadSchema.derive(from: attributes)), as: UTF8.self)
        let stateSchema = String(decoding: try encoder.encode(PayloadSchema.derive(from: Self.state)), as: UTF8.self)
        #expect(
            String(decoding: body, as: UTF8.self)
                == #"{"app_id":"3f0c5f55-0c8e-4c02-9a4d-4d1b0b7a1e11","attributes":"# + attributesSchema + #","content_state":"#
                + stateSchema + #","mode":"warn"}"#)
        #expect(PayloadSchema.Mode.enforce.rawValue == "enforce")
        #expect(PayloadSchema.Mode(rawValue: "warn") == .warn)
    }
}

/// ActivityKit decodes `content-state` with `JSONDecoder()`'s defaults: a `Date` is seconds since
/// 2001-01-01T00:00:00Z, which is what `"format": "apple-date"` promises the gateway.
@Suite("A Date in a content-state is seconds since 2001")
struct AppleDateContractTests {
    struct State: Codable, Equatable { var eta: Date }
    struct Raw: Codable { var eta: Double }

    /// 2026-11-18T18:13:20Z, in Unix time.
    static let unixSeconds: Double = 1_795_025_600
    /// Unix time of 2001-01-01T00:00:00Z, Apple's reference date.
    static let referenceDateUnixSeconds: Double = 978_307_200

    @Test func jsonEncodersDefaultWritesReferenceDateSecondsAndJSONDecoderReadsTheSameInstant() throws {
        let instant = Date(timeIntervalSince1970: Self.unixSeconds)
        let data = try JSONEncoder().encode(State(eta: instant))
        #expect(try JSONDecoder().decode(Raw.self, from: data).eta == Self.unixSeconds - Self.referenceDateUnixSeconds)
        #expect(try JSONDecoder().decode(State.self, from: data) == State(eta: instant))
        #expect(try PayloadSchema.derive(from: State(eta: instant)).properties?["eta"] == .appleDate)
    }

    @Test func aUnixTimestampReadsAboutThirtyOneYearsLate() throws {
        let sent = try JSONEncoder().encode(Raw(eta: Self.unixSeconds))
        let read = try JSONDecoder().decode(State.self, from: sent).eta
        #expect(read.timeIntervalSince1970 == Self.unixSeconds + Self.referenceDateUnixSeconds)
        #expect((read.timeIntervalSince1970 - Self.unixSeconds) / (365.25 * 86_400) > 31)
    }
}
