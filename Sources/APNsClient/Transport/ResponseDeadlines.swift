import DequeModule

/// When the answer to each request in flight is due: `HTTP2ClientConfiguration.responseTimeout` after
/// the request was sent (`curlPrereqCallback`), not after it was handed to libcurl.
///
/// libcurl's own `CURLOPT_TIMEOUT` counts from the moment a transfer is added, so a request that waits
/// for a free stream (every connection at the server's SETTINGS_MAX_CONCURRENT_STREAMS, which APNs may
/// lower to 1) would use up its timeout waiting, and fail, or go out with too little of it left, though
/// the server never saw it or saw it late. Here waiting costs nothing: a request is timed only once sent.
///
/// Used on one lane's thread only (`CurlLane`). Requests share one timeout and are sent one after another, so
/// their deadlines come in the order they were sent: a queue whose head is the next deadline. Entries
/// name the easy handle and a serial number, not the transfer, so that answered transfers are not kept
/// alive until their deadline; one whose handle has since moved on is stale and dropped.
final class ResponseDeadlines {
    private struct Entry {
        let easy: UnsafeMutableRawPointer
        let serial: UInt64
        let deadline: ContinuousClock.Instant
    }

    let timeout: Duration
    private var entries = Deque<Entry>()
    private var lastSerial: UInt64 = 0

    init(timeout: Duration) {
        self.timeout = timeout
    }

    /// `transfer` is sending its request now, on `easy`: its answer is due `timeout` from now.
    func requestSent(_ transfer: CurlTransfer, on easy: UnsafeMutableRawPointer) {
        lastSerial += 1
        transfer.sentSerial = lastSerial
        entries.append(Entry(easy: easy, serial: lastSerial, deadline: .now + timeout))
    }

    /// The handles whose request has had no answer within the timeout, removed from the queue, and the
    /// next deadline after them. `sentSerial(easy)`: the serial of the request in flight on `easy`, if any.
    func overdue(
        now: ContinuousClock.Instant, sentSerial: (UnsafeMutableRawPointer) -> UInt64?
    ) -> (handles: [UnsafeMutableRawPointer], next: ContinuousClock.Instant?) {
        var handles: [UnsafeMutableRawPointer] = []
        while let head = entries.first {
            if sentSerial(head.easy) == head.serial {
                guard head.deadline <= now else { return (handles, head.deadline) }
                handles.append(head.easy)
            }
            entries.removeFirst()
        }
        return (handles, nil)
    }
}
