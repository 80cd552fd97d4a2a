import DequeModule

/// A request in a lane's queue, as `LaneAdmission` sees it.
package protocol LaneRequest: AnyObject {
    /// Scheme, host and port: what a connection is made to.
    var endpoint: String { get }
    /// Sent to find out whether an endpoint that refused connections is back.
    var isProbe: Bool { get set }
    /// It went out on a connection, so the server may have seen it.
    var wasSent: Bool { get }
}

/// What a lane decides apart from libcurl: which requests start now and in what order, which wait for
/// room, which wait behind an endpoint's probe (`ConnectBackoff`), which fail at once, and what an ended
/// request, a probe lost with its connection, or shutting down mean for the others. `CurlLane`'s thread
/// carries the decisions out with libcurl; tests drive it without sockets, as postgres-nio drives its
/// connection's state machine.
package struct LaneAdmission<Request: LaneRequest> {
    /// What to do with a request taken off the queue.
    package enum Decision {
        case start(Request)
        case fail(Request, HTTP2TransportError)
    }

    // Requests beyond what the connections can carry wait here, in order, not in libcurl.
    private var waiting = Deque<Request>()
    // Requests waiting for their endpoint's probe, in the order they came.
    private var heldForProbe: [Request] = []
    private var backoff = ConnectBackoff()

    package init() {}

    /// Requests waiting for room (not those held behind a probe).
    package var waitingCount: Int { waiting.count }
    package var heldCount: Int { heldForProbe.count }

    package mutating func enqueue(_ requests: some Sequence<Request>) {
        waiting.append(contentsOf: requests)
    }

    /// Takes requests off the queue, in order, until `room` have been started: each is started, held
    /// behind its endpoint's probe, or failed at once (which takes no room), as the backoff says.
    package mutating func admit(room: Int, now: ContinuousClock.Instant) -> [Decision] {
        var decisions: [Decision] = []
        var started = 0
        while started < room, let request = waiting.popFirst() {
            if !backoff.isEmpty {
                switch backoff.admit(request.endpoint, now: now) {
                case .send: break
                case .probe: request.isProbe = true
                case .hold:
                    heldForProbe.append(request)
                    continue
                case .fail(let refusal):
                    decisions.append(.fail(request, refusal))
                    continue
                }
            }
            decisions.append(.start(request))
            started += 1
        }
        return decisions
    }

    /// `request` ended with `outcome`; `inFlight` are the lane's other started requests. When no
    /// connection to its endpoint could be opened, returns those of them not yet sent there, to fail
    /// now with the refusal rather than each trying a connection of its own; requests held behind a
    /// probe that ended go back to the front of the queue.
    package mutating func ended(
        _ request: Request, outcome: Result<HTTP2Response, HTTP2TransportError>, inFlight: some Sequence<Request>,
        now: ContinuousClock.Instant
    ) -> [(Request, HTTP2TransportError)] {
        switch outcome {
        case .success:
            if !backoff.isEmpty { answered(request.endpoint) }
        case .failure(let error) where error.partialAnswer != nil:
            if !backoff.isEmpty { answered(request.endpoint) }
        case .failure(let error) where ConnectBackoff.couldNotConnect(error):
            let endpoint = request.endpoint
            let refusal = backoff.connectFailed(endpoint, error: error, wasProbe: request.isProbe, now: now)
            let unsent = inFlight.filter { $0 !== request && !$0.wasSent && $0.endpoint == endpoint }
            for other in unsent where other.isProbe { backoff.probeEnded(endpoint) }
            releaseHeld(for: endpoint)
            return unsent.map { ($0, refusal) }
        case .failure:
            if request.isProbe { probeEnded(request.endpoint) }
        }
        return []
    }

    /// A probe ended without an answer and without a connect failure (its connection went quiet and was
    /// closed): the next request may probe, and those held behind it go first.
    package mutating func probeEnded(_ endpoint: String) {
        backoff.probeEnded(endpoint)
        releaseHeld(for: endpoint)
    }

    /// Shutting down: every request not started, to fail.
    package mutating func drain() -> [Request] {
        let unstarted = Array(waiting) + heldForProbe
        waiting.removeAll()
        heldForProbe.removeAll()
        return unstarted
    }

    private mutating func answered(_ endpoint: String) {
        backoff.answered(endpoint)
        releaseHeld(for: endpoint)
    }

    // The probe to `endpoint` ended: requests held for it go first, to be sent, held again behind a new
    // probe, or failed, as the backoff now says.
    private mutating func releaseHeld(for endpoint: String) {
        let released = heldForProbe.filter { $0.endpoint == endpoint }
        guard !released.isEmpty else { return }
        heldForProbe.removeAll { $0.endpoint == endpoint }
        waiting.insert(contentsOf: released, at: 0)
    }
}
