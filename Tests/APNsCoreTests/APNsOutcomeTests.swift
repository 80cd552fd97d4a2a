import APNsCore
import Testing

@Suite("APNs answers, classified as SPEC §7 says")
struct APNsOutcomeTests {
    static let cases: [(status: Int, body: String, expected: APNsOutcome)] = [
        (200, "", .delivered(apnsID: "id-1")),
        (410, #"{"reason":"Unregistered","timestamp":1685952000123}"#,
         .removeToken(status: 410, reason: .unregistered, timestamp: 1_685_952_000_123)),
        (410, #"{"reason":"ExpiredToken"}"#, .removeToken(status: 410, reason: .expiredToken, timestamp: nil)),
        (400, #"{"reason":"BadDeviceToken"}"#, .removeToken(status: 400, reason: .badDeviceToken, timestamp: nil)),
        (400, #"{"reason":"DeviceTokenNotForTopic"}"#, .rejected(status: 400, reason: .deviceTokenNotForTopic)),
        (400, #"{"reason":"BadTopic"}"#, .rejected(status: 400, reason: .badTopic)),
        (413, #"{"reason":"PayloadTooLarge"}"#, .rejected(status: 413, reason: .payloadTooLarge)),
        (403, #"{"reason":"ExpiredProviderToken"}"#, .providerTokenRejected(reason: .expiredProviderToken)),
        (403, #"{"reason":"InvalidProviderToken"}"#, .providerTokenRejected(reason: .invalidProviderToken)),
        (403, #"{"reason":"MissingProviderToken"}"#, .providerTokenRejected(reason: .missingProviderToken)),
        (403, #"{"reason":"BadCertificate"}"#, .rejected(status: 403, reason: APNsReason(rawValue: "BadCertificate"))),
        (429, #"{"reason":"TooManyRequests"}"#, .retryLater(status: 429, reason: .tooManyRequests)),
        (429, #"{"reason":"TooManyProviderTokenUpdates"}"#, .retryLater(status: 429, reason: .tooManyProviderTokenUpdates)),
        (500, #"{"reason":"InternalServerError"}"#, .retryLater(status: 500, reason: .internalServerError)),
        (503, "not json at all", .retryLater(status: 503, reason: nil)),
    ]

    @Test(arguments: cases)
    func classify(status: Int, body: String, expected: APNsOutcome) {
        #expect(APNsOutcome.classify(status: status, body: Array(body.utf8), apnsID: "id-1") == expected)
    }

    @Test func liveActivityHeaders() {
        let headers = LiveActivityPushHeaders(
            bundleID: "com.example.apple-samplecode.Emoji-Rangers", priority: .conservesPower, expiration: 1_685_995_200,
            apnsID: "123e4567-e89b-12d3-a456-426614174000")
        let fields = Dictionary(uniqueKeysWithValues: headers.fields.map { ($0.name, $0.value) })
        #expect(fields == [
            "apns-push-type": "liveactivity",
            "apns-topic": "com.example.apple-samplecode.Emoji-Rangers.push-type.liveactivity",
            "apns-priority": "5",
            "apns-expiration": "1685995200",
            "apns-id": "123e4567-e89b-12d3-a456-426614174000",
            "content-type": "application/json",
        ])
    }
}
