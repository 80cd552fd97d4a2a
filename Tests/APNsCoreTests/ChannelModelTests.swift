import APNsCore
import Testing

@Suite("Broadcast channel models")
struct ChannelModelTests {
    @Test func settingsRoundTripThroughJSON() throws {
        let settings = ChannelSettings(messageStoragePolicy: .mostRecentMessageStored)
        #expect(String(decoding: settings.json.serialized(), as: UTF8.self) == #"{"message-storage-policy":1,"push-type":"LiveActivity"}"#)
        #expect(try ChannelSettings(json: settings.json.serialized()) == settings)
        let read = try ChannelSettings(json: Array(#"{"push-type":"LiveActivity","message-storage-policy":0}"#.utf8))
        #expect(read == ChannelSettings(messageStoragePolicy: .noMessageStored, pushType: .liveActivity))
        // Open values pass through, for the reader to judge.
        #expect(
            try ChannelSettings(json: Array(#"{"message-storage-policy":7,"push-type":"Alert"}"#.utf8)).messageStoragePolicy.rawValue == 7)
    }

    @Test(arguments: [
        ("[]", ChannelSettingsError.Code.notAnObject),
        ("{", .notJSON),
        (#"{"push-type":"LiveActivity"}"#, .missingMessageStoragePolicy),
        (#"{"message-storage-policy":"1","push-type":"LiveActivity"}"#, .badMessageStoragePolicy),
        (#"{"message-storage-policy":1}"#, .missingPushType),
        (#"{"message-storage-policy":1,"push-type":3}"#, .badPushType),
    ])
    func settingsThatAreNotSettingsSayWhy(text: String, code: ChannelSettingsError.Code) {
        #expect(throws: ChannelSettingsError(code)) { try ChannelSettings(json: Array(text.utf8)) }
    }

    @Test func channelListsRoundTripThroughJSON() throws {
        let list = ChannelList(channels: [ChannelID(rawValue: "dHN0LXNyY2gtY2hubA=="), ChannelID(rawValue: "YWJjZA==")])
        let text = String(decoding: list.json.serialized(), as: UTF8.self)
        #expect(text == #"{"channels":["dHN0LXNyY2gtY2hubA==","YWJjZA=="]}"#)
        #expect(ChannelList(json: try JSONValue.parse(text)) == list)
        #expect(ChannelList(json: try JSONValue.parse(#"{"channels":[]}"#)) == ChannelList(channels: []))
        #expect(ChannelList(json: try JSONValue.parse(#"{"channels":[1]}"#)) == nil)
        #expect(ChannelList(json: try JSONValue.parse(#"{}"#)) == nil)
    }

    @Test func channelIDsAreBase64() {
        for good in ["dHN0LXNyY2gtY2hubA==", "YWJjZA==", "YWJjZGU=", "a+/9"] {
            #expect(ChannelID(rawValue: good).isWellFormed, "\(good)")
        }
        for bad in ["", "abc", "ab=c", "a===", "YWJj ZA==", "not base64!", "ab-_"] {
            #expect(!ChannelID(rawValue: bad).isWellFormed, "\(bad)")
        }
    }

    @Test func pathsAndBroadcastHeadersAreApples() {
        #expect(BroadcastPaths.channels(bundleID: "com.example.app") == "/1/apps/com.example.app/channels")
        #expect(BroadcastPaths.allChannels(bundleID: "com.example.app") == "/1/apps/com.example.app/all-channels")
        #expect(BroadcastPaths.broadcast(bundleID: "com.example.app") == "/4/broadcasts/apps/com.example.app")
        let headers = BroadcastPushHeaders(
            channelID: ChannelID(rawValue: "YWJjZA=="), priority: .immediate, expiration: 0, requestID: "id-1")
        #expect(
            headers.fields.map { "\($0.name): \($0.value)" } == [
                "apns-channel-id: YWJjZA==", "apns-push-type: liveactivity", "apns-priority: 10", "apns-expiration: 0",
                "content-type: application/json", "apns-request-id: id-1",
            ])
    }

    @Test func managementAnswersReadTheirBodies() throws {
        let read = ChannelManagementResponse(
            response: APNsResponse(status: 200, body: Array(#"{"message-storage-policy":0,"push-type":"LiveActivity"}"#.utf8), apnsID: nil),
            body: try JSONValue.parse(#"{"message-storage-policy":0,"push-type":"LiveActivity"}"#))
        #expect(read.reason == nil)
        #expect(read.settings == ChannelSettings(messageStoragePolicy: .noMessageStored))
        let refused = APNsResponse(status: 404, body: Array(#"{"reason":"ChannelNotRegistered"}"#.utf8), apnsID: nil, requestID: "r")
        #expect(refused.reason == .channelNotRegistered)
        #expect(refused.requestID == "r")
    }
}
