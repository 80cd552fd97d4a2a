import APNsClient
import Testing

/// How long a lane waits for its sockets: never long while transfers are in flight, so that answers
/// libcurl read and left unprocessed wait at most that long.
@Suite("A lane's wait for its sockets")
struct LanePollWaitTests {
    @Test func withTransfersInFlightTheWaitIsShort() {
        #expect(LanePollWait.milliseconds(inFlight: 30, untilDeadline: nil) == 20)
        #expect(LanePollWait.milliseconds(inFlight: 1, untilDeadline: 30_000) == 20)
    }

    @Test func withNothingInFlightItWaitsUpToASecond() {
        #expect(LanePollWait.milliseconds(inFlight: 0, untilDeadline: nil) == 1000)
    }

    @Test func aResponseDeadlineCutsEitherWaitShort() {
        #expect(LanePollWait.milliseconds(inFlight: 30, untilDeadline: 5) == 5)
        #expect(LanePollWait.milliseconds(inFlight: 0, untilDeadline: 400) == 400)
        #expect(LanePollWait.milliseconds(inFlight: 5, untilDeadline: 0) == 0)
        #expect(LanePollWait.milliseconds(inFlight: 0, untilDeadline: -3) == 0)
    }
}
