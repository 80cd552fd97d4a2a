import APNsClient
import APNsCore
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import Testing

@Suite("What APNs answers mean for delivery")
struct PushResultTests {
    /// Each answer on a push's first of 4 tries: nil means it is tried again.
    static let cases: [(status: Int, body: String, expected: PushResult?)] = [
        (200, "", .delivered),
        (
            410, #"{"reason":"Unregistered","timestamp":1685952000123}"#,
            .tokenRemoved(status: 410, reason: .unregistered, invalidSinceMilliseconds: 1_685_952_000_123)
        ),
        (410, #"{"reason":"ExpiredToken"}"#, .tokenRemoved(status: 410, reason: .expiredToken, invalidSinceMilliseconds: nil)),
        (410, "", .tokenRemoved(status: 410, reason: .unregistered, invalidSinceMilliseconds: nil)),
        (400, #"{"reason":"BadDeviceToken"}"#, .tokenRemoved(status: 400, reason: .badDeviceToken, invalidSinceMilliseconds: nil)),
        (400, #"{"reason":"DeviceTokenNotForTopic"}"#, .refused(status: 400, reason: .deviceTokenNotForTopic)),
        (400, #"{"reason":"BadTopic"}"#, .refused(status: 400, reason: .badTopic)),
        (413, #"{"reason":"PayloadTooLarge"}"#, .refused(status: 413, reason: .payloadTooLarge)),
        (403, #"{"reason":"ExpiredProviderToken"}"#, .credentialRejected(reason: .expiredProviderToken)),
        (403, #"{"reason":"InvalidProviderToken"}"#, .credentialRejected(reason: .invalidProviderToken)),
        (403, #"{"reason":"MissingProviderToken"}"#, .credentialRejected(reason: .missingProviderToken)),
        (403, #"{"reason":"BadCertificate"}"#, .refused(status: 403, reason: APNsReason(rawValue: "BadCertificate"))),
        (429, #"{"reason":"TooManyRequests"}"#, nil),
        (429, #"{"reason":"TooManyProviderTokenUpdates"}"#, nil),
        (500, #"{"reason":"InternalServerError"}"#, nil),
        (503, "not json at all", nil),
    ]

    static func answer(_ status: Int, _ body: String) -> APNsSendResult {
        .answered(APNsResponse(status: status, body: Array(body.utf8), apnsID: "id-1"))
    }

    @Test(arguments: cases)
    func firstTry(status: Int, body: String, expected: PushResult?) {
        #expect(PushResult(Self.answer(status, body), attempt: 1, maximumAttempts: 4) == expected)
    }

    @Test func theLastTryOfARetriableAnswerGivesUp() {
        #expect(
            PushResult(Self.answer(429, #"{"reason":"TooManyRequests"}"#), attempt: 4, maximumAttempts: 4)
                == .gaveUp(attempts: 4, lastProblem: .answered(status: 429, reason: .tooManyRequests)))
        #expect(
            PushResult(Self.answer(503, ""), attempt: 4, maximumAttempts: 4)
                == .gaveUp(attempts: 4, lastProblem: .answered(status: 503, reason: nil)))
        let timeout = HTTP2TransportError(.timedOut, "Timeout was reached")
        #expect(PushResult(.unreachable(timeout), attempt: 3, maximumAttempts: 4) == nil)
        #expect(
            PushResult(.unreachable(timeout), attempt: 4, maximumAttempts: 4) == .gaveUp(attempts: 4, lastProblem: .unreachable(timeout)))
    }

    /// The connection broke after the push went out (or the server refused its stream unprocessed, which
    /// libcurl 7.88 reports the same): it is tried again, as its content is the same on the device either
    /// way, until the tries run out.
    @Test func aPushWhoseAnswerWasLostIsTriedAgain() {
        let lost = HTTP2TransportError(.lostAfterSending, "the connection failed before the answer came")
        #expect(PushResult(.unreachable(lost), attempt: 1, maximumAttempts: 4) == nil)
        #expect(PushResult(.unreachable(lost), attempt: 4, maximumAttempts: 4) == .gaveUp(attempts: 4, lastProblem: .unreachable(lost)))
    }

    @Test func aKeyThatCannotSignIsACredentialProblemAtOnce() {
        let error = APNsKeyError.unusablePEM(notP256: true, isPrivate: true)
        #expect(PushResult(.unsignable(error), attempt: 1, maximumAttempts: 4) == .credentialUnusable)
    }
}
