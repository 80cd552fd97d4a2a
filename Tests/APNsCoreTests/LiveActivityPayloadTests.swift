import APNsCore
import Testing

/// Apple's WWDC23 examples ("Update Live Activities with push notifications"), stamped 2023-06-05T08:00:00Z.
@Suite("Live Activity payloads match Apple's examples")
struct LiveActivityPayloadTests {
    static let wwdcTime: Int64 = 1_685_952_000
    static let twoHoursLater: Int64 = 1_685_959_200

    static func contentState(_ health: String, _ description: String) -> JSONObject {
        ["currentHealthLevel": .number(health), "eventDescription": .string(description)]
    }

    @Test func update() throws {
        let payload = LiveActivityPayload(
            event: .update, timestamp: Self.wwdcTime,
            contentState: Self.contentState("0.941", "Power Panda found a sword!"))
        try expect(
            payload,
            matches: #"""
                { "aps": { "timestamp": 1685952000, "event": "update", "content-state": { "currentHealthLevel": 0.941, "eventDescription": "Power Panda found a sword!" } } }
                """#)
        // Byte for byte, so the key order the gateway promises is pinned down too.
        #expect(
            text(payload.encoded())
                == #"{"aps":{"timestamp":1685952000,"event":"update","content-state":{"currentHealthLevel":0.941,"eventDescription":"Power Panda found a sword!"}}}"#
        )
    }

    @Test func updateWithAlert() throws {
        let payload = LiveActivityPayload(
            event: .update, timestamp: Self.wwdcTime,
            contentState: Self.contentState("0.0", "Power Panda has been knocked down!"),
            alert: LiveActivityAlert(
                title: .plain("Power Panda is knocked down!"), body: .plain("Use a potion to heal Power Panda!"),
                sound: "default"))
        try expect(
            payload,
            matches: #"""
                { "aps": { "timestamp": 1685952000, "event": "update", "content-state": { "currentHealthLevel": 0.0, "eventDescription": "Power Panda has been knocked down!" }, "alert": { "title": "Power Panda is knocked down!", "body": "Use a potion to heal Power Panda!", "sound": "default" } } }
                """#)
    }

    @Test func updateWithLocalizedAlert() throws {
        let payload = LiveActivityPayload(
            event: .update, timestamp: Self.wwdcTime,
            contentState: Self.contentState("0.0", "Power Panda has been knocked down!"),
            alert: LiveActivityAlert(
                title: .localized(key: "%@ is knocked down!", arguments: ["Power Panda"]),
                body: .localized(key: "Use a potion to heal %@!", arguments: ["Power Panda"]),
                sound: "HeroDown.mp4"))
        try expect(
            payload,
            matches: #"""
                { "aps": { "timestamp": 1685952000, "event": "update", "content-state": { "currentHealthLevel": 0.0, "eventDescription": "Power Panda has been knocked down!" }, "alert": { "title": { "loc-key": "%@ is knocked down!", "loc-args": ["Power Panda"] }, "body": { "loc-key": "Use a potion to heal %@!", "loc-args": ["Power Panda"] }, "sound": "HeroDown.mp4" } } }
                """#)
    }

    @Test func end() throws {
        let payload = LiveActivityPayload(
            event: .end, timestamp: Self.wwdcTime,
            contentState: Self.contentState("0.23", "Adventure over! Power Panda is taking a nap."),
            dismissalDate: Self.twoHoursLater)
        try expect(
            payload,
            matches: #"""
                { "aps": { "timestamp": 1685952000, "event": "end", "dismissal-date": 1685959200, "content-state": { "currentHealthLevel": 0.23, "eventDescription": "Adventure over! Power Panda is taking a nap." } } }
                """#)
    }

    @Test func staleDate() throws {
        let payload = LiveActivityPayload(
            event: .update, timestamp: Self.wwdcTime,
            contentState: Self.contentState("0.79", "Egghead is in the woods and lost connection."),
            staleDate: Self.twoHoursLater)
        try expect(
            payload,
            matches: #"""
                { "aps": { "timestamp": 1685952000, "event": "update", "stale-date": 1685959200, "content-state": { "currentHealthLevel": 0.79, "eventDescription": "Egghead is in the woods and lost connection." } } }
                """#)
    }

    @Test func relevanceScore() throws {
        let payload = LiveActivityPayload(
            event: .update, timestamp: Self.wwdcTime,
            contentState: Self.contentState("0.941", "Power Panda found a sword!"),
            relevanceScore: .number("100"))
        try expect(
            payload,
            matches: #"""
                { "aps": { "timestamp": 1685952000, "event": "update", "relevance-score": 100, "content-state": { "currentHealthLevel": 0.941, "eventDescription": "Power Panda found a sword!" } } }
                """#)
    }

    /// Push-to-start as Apple documents it ("Starting and updating Live Activities with ActivityKit
    /// push notifications"), with the `brazeActivityId` attribute Braze's SDK reads and
    /// `input-push-token` asking the new activity for its update token.
    @Test func start() throws {
        let payload = LiveActivityPayload(
            event: .start, timestamp: Self.wwdcTime,
            contentState: Self.contentState("100", "Power Panda is ready for an adventure!"),
            alert: LiveActivityAlert(
                title: .plain("Power Panda is on an adventure!"), body: .plain("Tap to follow along.")),
            attributesType: "AdventureAttributes",
            attributes: ["currentAdventure": .string("The Misty Woods"), "brazeActivityId": .string("adventure-42")],
            inputPushToken: true)
        try expect(
            payload,
            matches: #"""
                {
                    "aps": {
                        "timestamp": 1685952000,
                        "event": "start",
                        "content-state": {
                            "currentHealthLevel": 100,
                            "eventDescription": "Power Panda is ready for an adventure!"
                        },
                        "attributes-type": "AdventureAttributes",
                        "attributes": {
                            "currentAdventure": "The Misty Woods",
                            "brazeActivityId": "adventure-42"
                        },
                        "alert": {
                            "title": "Power Panda is on an adventure!",
                            "body": "Tap to follow along."
                        },
                        "input-push-token": 1
                    }
                }
                """#)
        #expect(
            text(payload.encoded())
                == #"{"aps":{"timestamp":1685952000,"event":"start","content-state":{"currentHealthLevel":100,"eventDescription":"Power Panda is ready for an adventure!"},"alert":{"title":"Power Panda is on an adventure!","body":"Tap to follow along."},"attributes-type":"AdventureAttributes","attributes":{"currentAdventure":"The Misty Woods","brazeActivityId":"adventure-42"},"input-push-token":1}}"#
        )
    }

    private func expect(
        _ payload: LiveActivityPayload, matches expected: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let encoded = payload.encoded()
        let actual = try JSONValue.parse(encoded)
        let expectedValue = try json(expected, sourceLocation: sourceLocation)
        #expect(actual.isEquivalent(to: expectedValue), "got \(text(encoded))", sourceLocation: sourceLocation)
        #expect(encoded.count <= LiveActivityPayload.maximumSize, sourceLocation: sourceLocation)
        // Compact: re-serializing what was parsed gives the same bytes, so there is no stray whitespace.
        #expect(actual.serialized() == encoded, sourceLocation: sourceLocation)
    }
}
