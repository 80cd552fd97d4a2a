/// One lane's view of the endpoints it could not connect to. After a connection to an endpoint could
/// not be opened (refused, or no TLS handshake), and until an answer comes from it again, requests to it
/// are failed at once (`connectFailed` or `tlsFailed`, as the last try) instead of each opening a
/// connection of its own; one request at a time is let through as a probe, 100 ms after the first
/// failure, doubling to at most 5 s, and requests that come while it is out wait for what it finds
/// (sent if it got an answer, failed if it could not connect either). Without it, an endpoint that is
/// down met every push in flight, and every retry of each, with a handshake of its own: thousands a second.
///
/// The requests failed at once never reached the server, so the callers' retry policies treat them as
/// any other connect failure. Used on the lane's thread only (`CurlLane`).
struct ConnectBackoff {
    enum Admission: Equatable {
        case send
        /// Send it, and what comes of it says whether the endpoint is back.
        case probe
        /// A probe is out: wait for what it finds.
        case hold
        case fail(HTTP2TransportError)
    }

    private struct Failing {
        var failures: Int
        var nextProbe: ContinuousClock.Instant
        var probing: Bool
        var last: HTTP2TransportError
    }

    static let firstDelay = Duration.milliseconds(100)
    static let maximumDelay = Duration.seconds(5)

    private var failing: [String: Failing] = [:]

    /// True while every endpoint connects: nothing to look up per request.
    var isEmpty: Bool { failing.isEmpty }

    /// `scheme://authority` of `url`: what a connection is opened to.
    static func endpoint(of url: String) -> String {
        let bytes = url.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return url }
        // The authority runs from after "://" to the path's first slash.
        let authority = bytes.index(colon, offsetBy: 3, limitedBy: bytes.endIndex) ?? bytes.endIndex
        let path = bytes[authority...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
        return String(url[..<path])
    }

    mutating func admit(_ endpoint: String, now: ContinuousClock.Instant) -> Admission {
        guard var state = failing[endpoint] else { return .send }
        if state.probing { return .hold }
        guard now >= state.nextProbe else { return .fail(Self.refusal(endpoint, state, now: now)) }
        state.probing = true
        failing[endpoint] = state
        return .probe
    }

    /// The error a request to a failing endpoint fails with at once.
    private static func refusal(_ endpoint: String, _ state: Failing, now: ContinuousClock.Instant) -> HTTP2TransportError {
        let wait = max(.zero, state.nextProbe - now)
        return HTTP2TransportError(
            state.last.code,
            "not tried: no connection to \(endpoint) could be opened (\(state.failures) in a row, next try in "
                + "\(wait.curlMilliseconds) ms; last: \(state.last.message))")
    }

    /// Whether a request that ended with `error` shows that its endpoint took no connection: it could
    /// not connect, or its TLS handshake failed. Not a timeout before the request went out: that may be
    /// a request that waited for a free stream on a working connection (a server that lowered its
    /// SETTINGS_MAX_CONCURRENT_STREAMS), and a connect that times out is slow enough on its own.
    static func couldNotConnect(_ error: HTTP2TransportError) -> Bool {
        error.code == .connectFailed || error.code == .tlsFailed
    }

    /// An answer came from `endpoint`: its connections work.
    mutating func answered(_ endpoint: String) {
        failing[endpoint] = nil
    }

    /// A connection to `endpoint` could not be opened; returns the error that requests still waiting for
    /// one there fail with. Failures of requests admitted before the first one, or while a probe was out,
    /// count as one: the delay grows with probes, not with pushes.
    mutating func connectFailed(
        _ endpoint: String, error: HTTP2TransportError, wasProbe: Bool, now: ContinuousClock.Instant
    ) -> HTTP2TransportError {
        var state: Failing
        if let failed = failing[endpoint] {
            state = failed
            state.last = error
            if wasProbe {
                state.failures += 1
                state.probing = false
                state.nextProbe = now + Self.delay(afterFailures: state.failures)
            }
        } else {
            state = Failing(failures: 1, nextProbe: now + Self.firstDelay, probing: false, last: error)
        }
        failing[endpoint] = state
        return Self.refusal(endpoint, state, now: now)
    }

    /// The probe ended without an answer and without a connect failure (it timed out after it was sent,
    /// or the connection broke): the next request may probe.
    mutating func probeEnded(_ endpoint: String) {
        failing[endpoint]?.probing = false
    }

    static func delay(afterFailures failures: Int) -> Duration {
        let doublings = min(failures - 1, 6)
        return min(maximumDelay, firstDelay * (1 << doublings))
    }
}
