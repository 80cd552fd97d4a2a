import APNsCore
import Testing

@Suite("APNs answers, read")
struct APNsResponseTests {
    static let cases: [(status: Int, body: String, expected: APNsResponse)] = [
        (200, "", APNsResponse(status: 200, apnsID: "id-1")),
        (
            410, #"{"reason":"Unregistered","timestamp":1685952000123}"#,
            APNsResponse(status: 410, apnsID: "id-1", reason: .unregistered, timestamp: 1_685_952_000_123)
        ),
        (410, #"{"reason":"ExpiredToken"}"#, APNsResponse(status: 410, apnsID: "id-1", reason: .expiredToken)),
        (400, #"{"reason":"BadDeviceToken"}"#, APNsResponse(status: 400, apnsID: "id-1", reason: .badDeviceToken)),
        (403, #"{"reason":"InvalidProviderToken"}"#, APNsResponse(status: 403, apnsID: "id-1", reason: .invalidProviderToken)),
        (429, #"{"reason":"TooManyRequests"}"#, APNsResponse(status: 429, apnsID: "id-1", reason: .tooManyRequests)),
        (503, "not json at all", APNsResponse(status: 503, apnsID: "id-1")),
    ]

    @Test(arguments: cases)
    func read(status: Int, body: String, expected: APNsResponse) {
        #expect(APNsResponse(status: status, body: Array(body.utf8), apnsID: "id-1") == expected)
    }

    @Test func onlyProviderTokenReasonsOnA403RejectTheToken() {
        for reason in [APNsReason.expiredProviderToken, .invalidProviderToken, .missingProviderToken] {
            #expect(APNsResponse(status: 403, reason: reason).rejectsProviderToken)
            #expect(!APNsResponse(status: 400, reason: reason).rejectsProviderToken)
        }
        #expect(!APNsResponse(status: 403, reason: APNsReason(rawValue: "BadCertificate")).rejectsProviderToken)
        #expect(!APNsResponse(status: 403).rejectsProviderToken)
    }

    @Test func liveActivityHeaders() {
        let headers = LiveActivityPushHeaders(
            bundleID: "com.example.apple-samplecode.Emoji-Rangers", priority: .conservesPower, expiration: 1_685_995_200,
            apnsID: "123e4567-e89b-12d3-a456-426614174000")
        let fields = Dictionary(uniqueKeysWithValues: headers.fields.map { ($0.name, $0.value) })
        #expect(
            fields == [
                "apns-push-type": "liveactivity",
                "apns-topic": "com.example.apple-samplecode.Emoji-Rangers.push-type.liveactivity",
                "apns-priority": "5",
                "apns-expiration": "1685995200",
                "apns-id": "123e4567-e89b-12d3-a456-426614174000",
                "content-type": "application/json",
            ])
    }
}
