/// The client's connect timeout, kept by its lane rather than by libcurl.
///
/// libcurl 7.88 arms a timer for every transfer when `CURLOPT_CONNECTTIMEOUT_MS` is set (as the
/// transfer enters its connect state, `multi.c`): a node each transfer inserts into the multi handle's
/// splay tree and takes out again, about 1% of a lane's CPU in a fan-out, where nearly every request
/// goes out on a connection already open. The lane instead checks its started transfers now and then:
/// one not sent `timeout` after it started (its connection still opening, or no stream free for it) has
/// met the connect timeout, as it would have in libcurl, which counts from the transfer's start too.
///
/// A check is due when the oldest deadline it knows of comes, and a transfer started later has a later
/// deadline than that: so no deadline is missed, and while requests go out at once, a check comes once
/// per `timeout`. Used on one lane's thread only (`CurlLane`).
package struct ConnectTimeouts {
    package let timeout: Duration
    /// When the next check is due; nil while no started transfer may be waiting.
    package private(set) var nextCheck: ContinuousClock.Instant?

    package init(timeout: Duration) {
        self.timeout = timeout
    }

    /// A transfer started at `now`.
    package mutating func started(at now: ContinuousClock.Instant) {
        if nextCheck == nil { nextCheck = now + timeout }
    }

    package func isDue(at now: ContinuousClock.Instant) -> Bool {
        nextCheck.map { $0 <= now } ?? false
    }

    /// Of the `started` transfers, those not sent within the timeout; `unsentSince` gives when a transfer
    /// started, or nil once it was sent. Schedules the next check for the earliest deadline left.
    package mutating func check<Transfer>(
        _ started: some Sequence<Transfer>, now: ContinuousClock.Instant,
        unsentSince: (Transfer) -> ContinuousClock.Instant?
    ) -> [Transfer] {
        var expired: [Transfer] = []
        var next: ContinuousClock.Instant?
        for transfer in started {
            guard let since = unsentSince(transfer) else { continue }
            let deadline = since + timeout
            if deadline <= now {
                expired.append(transfer)
            } else if next.map({ deadline < $0 }) ?? true {
                next = deadline
            }
        }
        nextCheck = next
        return expired
    }
}
