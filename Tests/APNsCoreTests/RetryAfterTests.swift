import APNsCore
import Testing

@Suite("retry-after, as APNs may send it with a 429")
struct RetryAfterTests {
    /// 2015-10-21T07:28:00Z
    static let now: Double = 1_445_412_480

    @Test func secondsAreTheWait() {
        #expect(RetryAfter.wait("120", now: Self.now) == .seconds(120))
        #expect(RetryAfter.wait(" 0 ", now: Self.now) == .zero)
        #expect(RetryAfter.wait("99999999999999999999", now: Self.now) == .seconds(999_999_999), "capped, not overflowed")
    }

    @Test func anHTTPDateIsWaitedUntil() {
        #expect(RetryAfter.wait("Wed, 21 Oct 2015 07:28:30 GMT", now: Self.now) == .seconds(30))
        #expect(RetryAfter.wait("Wed, 21 Oct 2015 07:28:00 GMT", now: Self.now + 0.25) == .zero, "a date past asks no wait")
        #expect(RetryAfter.wait("Thu, 29 Feb 2024 00:00:00 GMT", now: 1_709_164_800 - 60) == .seconds(60))
    }

    @Test(arguments: [
        "", "soon", "-5", "1.5", "Wed, 21 Oct 2015 07:28:30 UTC", "Wed, 31 Apr 2015 07:28:30 GMT", "21 Oct 2015 07:28:30 GMT",
    ])
    func anythingElseIsNoWait(_ text: String) {
        #expect(RetryAfter.wait(text, now: Self.now) == nil)
    }

    @Test func aResponseReadsItsHeader() {
        let response = APNsResponse(
            status: 429, body: Array(#"{"reason":"TooManyRequests"}"#.utf8), apnsID: nil, retryAfter: "3", now: Self.now)
        #expect(response.reason == .tooManyRequests)
        #expect(response.retryAfter == .seconds(3))
        #expect(APNsResponse(status: 429, body: [], apnsID: nil).retryAfter == nil)
    }
}
