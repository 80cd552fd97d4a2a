/// How long a lane's thread waits in `curl_multi_poll` for its sockets, a new request or a timer.
///
/// With transfers in flight the wait is short. libcurl 7.88 can leave answers it has already read off
/// a connection unprocessed, with nothing left to wake the poll: a page's last transfers then sit out
/// the whole wait, and the pass after it finishes them all at once. The short wait bounds such a stall;
/// while answers come in, the sockets wake the thread sooner anyway, and a pass that finds nothing to do
/// costs little.
package enum LanePollWait {
    /// The longest wait while transfers are in flight.
    package static let inFlightMilliseconds = 20
    /// The longest wait with nothing in flight: a new request or libcurl's own timers wake it sooner.
    package static let idleMilliseconds = 1000

    /// The wait in milliseconds, at most until the next response deadline (`untilDeadline`, if any;
    /// none when it has passed).
    package static func milliseconds(inFlight: Int, untilDeadline: Int?) -> Int32 {
        let longest = inFlight > 0 ? inFlightMilliseconds : idleMilliseconds
        return Int32(max(0, min(longest, untilDeadline ?? longest)))
    }
}
