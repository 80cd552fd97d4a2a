import APNsClient
import Testing

/// A queued request, as the admission sees one.
final class QueuedRequest: LaneRequest {
    let name: String
    let endpoint: String
    var isProbe = false
    var wasSent = false

    init(_ name: String, endpoint: String = "https://apns.example:443") {
        self.name = name
        self.endpoint = endpoint
    }
}

/// `CurlLane`'s decisions, driven without sockets or libcurl: the order requests start in, the room,
/// and what a connect failure, a probe and shutting down mean for the others.
@Suite("A lane's admission, without sockets")
struct LaneAdmissionTests {
    static let refused = HTTP2TransportError(.connectFailed, "Couldn't connect to server")
    static let answer = Result<HTTP2Response, HTTP2TransportError>.success(HTTP2Response(status: 200))

    static func names(_ decisions: [LaneAdmission<QueuedRequest>.Decision]) -> [String] {
        decisions.map {
            switch $0 {
            case .start(let request): "start \(request.name)\(request.isProbe ? " (probe)" : "")"
            case .fail(let request, _): "fail \(request.name)"
            }
        }
    }

    /// An admission whose first request to the endpoint could not connect, at the instant returned.
    static func afterAConnectFailure() -> (LaneAdmission<QueuedRequest>, ContinuousClock.Instant) {
        var admission = LaneAdmission<QueuedRequest>()
        let first = QueuedRequest("first")
        admission.enqueue([first])
        _ = admission.admit(room: 1, now: .now)
        let failedAt = ContinuousClock.now
        _ = admission.ended(first, outcome: .failure(Self.refused), inFlight: [], now: failedAt)
        return (admission, failedAt)
    }

    @Test func requestsStartInOrderUpToTheRoomAndTheRestWait() {
        var admission = LaneAdmission<QueuedRequest>()
        admission.enqueue(["a", "b", "c"].map { QueuedRequest($0) })
        #expect(Self.names(admission.admit(room: 2, now: .now)) == ["start a", "start b"])
        #expect(admission.waitingCount == 1)
        #expect(Self.names(admission.admit(room: 5, now: .now)) == ["start c"])
        #expect(admission.waitingCount == 0)
    }

    /// A connection that could not be opened: the requests started but not yet sent to that endpoint
    /// fail with it, others' do not; new ones fail at once until a probe may go, one probe goes while the
    /// rest wait behind it, and its answer lets them go first, in order.
    @Test func aConnectFailureFailsTheUnsentHoldsTheRestBehindOneProbeAndAnAnswerReleasesThem() {
        var admission = LaneAdmission<QueuedRequest>()
        let first = QueuedRequest("first")
        let unsent = QueuedRequest("unsent")
        let sent = QueuedRequest("sent")
        sent.wasSent = true
        let elsewhere = QueuedRequest("elsewhere", endpoint: "https://other.example:443")
        admission.enqueue([first, unsent, sent, elsewhere])
        #expect(admission.admit(room: 10, now: .now).count == 4)

        let failedAt = ContinuousClock.now
        let refusedNow = admission.ended(
            first, outcome: .failure(Self.refused), inFlight: [unsent, sent, elsewhere], now: failedAt)
        #expect(refusedNow.map(\.0.name) == ["unsent"])
        #expect(refusedNow.allSatisfy { $0.1.code == .connectFailed })

        admission.enqueue(["early"].map { QueuedRequest($0) })
        #expect(Self.names(admission.admit(room: 10, now: failedAt + .milliseconds(10))) == ["fail early"])

        let probe = QueuedRequest("probe")
        admission.enqueue([probe, QueuedRequest("next"), QueuedRequest("last")])
        #expect(Self.names(admission.admit(room: 10, now: failedAt + .milliseconds(150))) == ["start probe (probe)"])
        #expect(admission.heldCount == 2)

        admission.enqueue([QueuedRequest("newer")])
        #expect(admission.ended(probe, outcome: Self.answer, inFlight: [], now: failedAt + .milliseconds(160)).isEmpty)
        #expect(admission.heldCount == 0)
        #expect(
            Self.names(admission.admit(room: 10, now: failedAt + .milliseconds(170))) == ["start next", "start last", "start newer"])
    }

    /// A probe lost with its connection (no answer, no connect failure): the next request may probe.
    @Test func aProbeLostWithItsConnectionLetsTheNextOneProbe() {
        var (admission, failedAt) = Self.afterAConnectFailure()

        admission.enqueue([QueuedRequest("probe"), QueuedRequest("held")])
        #expect(Self.names(admission.admit(room: 10, now: failedAt + .milliseconds(150))) == ["start probe (probe)"])
        admission.probeEnded("https://apns.example:443")
        #expect(Self.names(admission.admit(room: 10, now: failedAt + .milliseconds(160))) == ["start held (probe)"])
    }

    @Test func shuttingDownHandsBackEverythingNotStarted() {
        var (admission, failedAt) = Self.afterAConnectFailure()
        admission.enqueue(["probe", "held", "waiting"].map { QueuedRequest($0) })
        _ = admission.admit(room: 1, now: failedAt + .milliseconds(150))
        #expect(admission.drain().map(\.name).sorted() == ["held", "waiting"])
        #expect(admission.waitingCount == 0 && admission.heldCount == 0)
    }
}
