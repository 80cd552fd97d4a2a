import APNsClient
import APNsCore
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import Testing

@Suite("What APNs answers mean for a broadcast")
struct BroadcastResultTests {
    /// Each answer on a broadcast's first of 4 tries: nil means it is tried again.
    static let cases: [(status: Int, body: String, expected: BroadcastResult?)] = [
        (200, "", .delivered),
        (404, "", .channelGone(status: 404, reason: nil)),
        (410, #"{"reason":"ChannelNotRegistered"}"#, .channelGone(status: 410, reason: .channelNotRegistered)),
        (400, #"{"reason":"BadChannelId"}"#, .channelGone(status: 400, reason: .badChannelId)),
        (400, #"{"reason":"ChannelNotRegistered"}"#, .channelGone(status: 400, reason: .channelNotRegistered)),
        // A device's dead-token answer means nothing about a channel.
        (400, #"{"reason":"BadDeviceToken"}"#, .refused(status: 400, reason: .badDeviceToken)),
        (413, #"{"reason":"PayloadTooLarge"}"#, .refused(status: 413, reason: .payloadTooLarge)),
        (403, #"{"reason":"ExpiredProviderToken"}"#, .credentialRejected(reason: .expiredProviderToken)),
        (429, #"{"reason":"TooManyRequests"}"#, nil),
        (503, "", nil),
    ]

    @Test(arguments: cases)
    func firstTry(status: Int, body: String, expected: BroadcastResult?) {
        #expect(BroadcastResult(PushResultTests.answer(status, body), attempt: 1, maximumAttempts: 4) == expected)
    }

    @Test func theLastTryOfARetriableAnswerGivesUpAndAKeyThatCannotSignSendsNothing() {
        #expect(
            BroadcastResult(PushResultTests.answer(503, ""), attempt: 4, maximumAttempts: 4)
                == .gaveUp(attempts: 4, lastProblem: .answered(status: 503, reason: nil)))
        #expect(
            BroadcastResult(.unsignable(APNsKeyError(.unreadable, "no key")), attempt: 1, maximumAttempts: 4) == .credentialUnusable)
    }
}
