import APNsCore
import Testing

@Suite("Live Activity payload encoding")
struct LiveActivityEncodingTests {
    @Test func contentStateIsSentAsTheClientWroteIt() throws {
        let body = try json(#"{"content_state": {"z": 0.0, "big": 1e3, "a": 1.50, "neg": -0, "text": "a/b é"}}"#)
        let contentState = try #require(body["content_state"]?.objectValue)
        let encoded = text(LiveActivityPayload(event: .update, timestamp: 1, contentState: contentState).encoded())
        #expect(encoded.contains(#""content-state":{"z":0.0,"big":1e3,"a":1.50,"neg":-0,"text":"a/b é"}"#))
    }

    @Test func relevanceScoreKeepsItsLexeme() throws {
        let score = try #require(try json(#"{"relevance_score": 12.50}"#)["relevance_score"])
        let payload = LiveActivityPayload(event: .update, timestamp: 1, contentState: [:], relevanceScore: score)
        #expect(text(payload.encoded()).contains(#""relevance-score":12.50"#))
    }

    @Test func everyFieldInTheDocumentedOrder() {
        let payload = LiveActivityPayload(
            event: .start, timestamp: 10, contentState: ["s": .integer(1)], staleDate: 20, dismissalDate: 30,
            relevanceScore: .number("0.5"), alert: LiveActivityAlert(title: .plain("t"), body: .plain("b"), sound: "s"),
            attributesType: "T", attributes: ["a": .bool(true)], inputPushToken: true)
        #expect(
            text(payload.encoded())
                == #"{"aps":{"timestamp":10,"event":"start","content-state":{"s":1},"stale-date":20,"dismissal-date":30,"relevance-score":0.5,"alert":{"title":"t","body":"b","sound":"s"},"attributes-type":"T","attributes":{"a":true},"input-push-token":1}}"#
        )
    }

    @Test func absentFieldsAreLeftOut() {
        let payload = LiveActivityPayload(
            event: .end, timestamp: 10, contentState: [:], alert: LiveActivityAlert(), inputPushToken: false)
        #expect(text(payload.encoded()) == #"{"aps":{"timestamp":10,"event":"end","content-state":{}}}"#)
    }

    @Test(arguments: [
        (LiveActivityAlert(sound: "default"), #"{"sound":"default"}"#),
        (LiveActivityAlert(body: .plain("only body")), #"{"body":"only body"}"#),
        (LiveActivityAlert(title: .localized(key: "KEY", arguments: [])), #"{"title":{"loc-key":"KEY"}}"#),
        (
            LiveActivityAlert(title: .plain("t"), body: .localized(key: "%@ %@", arguments: ["a\"b", "c"])),
            #"{"title":"t","body":{"loc-key":"%@ %@","loc-args":["a\"b","c"]}}"#
        ),
    ])
    func alertShapes(alert: LiveActivityAlert, expected: String) {
        let payload = LiveActivityPayload(event: .update, timestamp: 1, contentState: [:], alert: alert)
        #expect(text(payload.encoded()).contains(#","alert":"# + expected + "}}"))
    }

    @Test func stringsAreEscaped() throws {
        let payload = LiveActivityPayload(
            event: .update, timestamp: 1, contentState: ["quote": .string("say \"hi\"\n")],
            alert: LiveActivityAlert(title: .plain("tab\there")))
        let encoded = payload.encoded()
        #expect(text(encoded).contains(#""quote":"say \"hi\"\n""#))
        #expect(try JSONValue.parse(encoded)["aps"]?["alert"]?["title"]?.stringValue == "tab\there")
    }

    @Test func negativeTimestampsAndDates() throws {
        let payload = LiveActivityPayload(event: .update, timestamp: -5, contentState: [:], staleDate: Int64.max)
        #expect(
            text(payload.encoded())
                == #"{"aps":{"timestamp":-5,"event":"update","content-state":{},"stale-date":9223372036854775807}}"#)
    }

    @Test func sizeCanBeCheckedAgainstTheAPNsLimit() {
        #expect(LiveActivityPayload.maximumSize == 4096)
        let large = LiveActivityPayload(
            event: .update, timestamp: 1, contentState: ["text": .string(String(repeating: "x", count: 4096))])
        #expect(large.encoded().count > LiveActivityPayload.maximumSize)
    }

    @Test func events() {
        #expect(LiveActivityEvent.update.rawValue == "update")
        #expect(LiveActivityEvent.end.rawValue == "end")
        #expect(LiveActivityEvent.start.rawValue == "start")
        #expect(LiveActivityEvent(rawValue: "end") == .end)
        #expect(LiveActivityEvent(rawValue: "pause") == nil)
        #expect(LiveActivityEvent(rawValue: "Update") == nil)
    }
}

@Suite("Live Activity start on a broadcast channel")
struct LiveActivityStartChannelEncodingTests {
    @Test func aChannelIsSentInsteadOfTheTokenRequest() {
        let payload = LiveActivityPayload(
            event: .start, timestamp: 10, contentState: [:], attributesType: "T", attributes: [:], inputPushToken: true,
            inputPushChannel: ChannelID(rawValue: "dHN0LXN0cmVhbQ=="))
        #expect(
            String(decoding: payload.encoded(), as: UTF8.self)
                == #"{"aps":{"timestamp":10,"event":"start","content-state":{},"attributes-type":"T","attributes":{},"input-push-channel":"dHN0LXN0cmVhbQ=="}}"#
        )
    }
}
